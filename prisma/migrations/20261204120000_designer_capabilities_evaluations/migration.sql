-- The designer remembers which structured-output path each provider answers on (ModelCapability),
-- and stores the reports of designer evaluations run from Settings or the command (DesignerEvaluation).

-- CreateTable
CREATE TABLE "ModelCapability" (
    "ownerId" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ModelCapability_pkey" PRIMARY KEY ("ownerId","baseUrl","model")
);

-- CreateTable
CREATE TABLE "DesignerEvaluation" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "providerId" TEXT,
    "label" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "rows" JSONB NOT NULL DEFAULT '[]',
    "summary" JSONB,
    "error" TEXT,
    "source" TEXT NOT NULL DEFAULT 'ui',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "DesignerEvaluation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DesignerEvaluation_ownerId_createdAt_idx" ON "DesignerEvaluation"("ownerId", "createdAt");

-- AddForeignKey
ALTER TABLE "ModelCapability" ADD CONSTRAINT "ModelCapability_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DesignerEvaluation" ADD CONSTRAINT "DesignerEvaluation_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

