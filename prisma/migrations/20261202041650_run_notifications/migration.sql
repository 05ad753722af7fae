-- CreateEnum
CREATE TYPE "NotifyOn" AS ENUM ('all', 'failures');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('pending', 'delivered', 'failed');

-- CreateTable
CREATE TABLE "RunNotifier" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "on" "NotifyOn" NOT NULL DEFAULT 'all',
    "secretEnc" TEXT NOT NULL,
    "secretLast4" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "enabledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunNotifier_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationDelivery" (
    "id" TEXT NOT NULL,
    "notifierId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "responseStatus" INTEGER,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),

    CONSTRAINT "NotificationDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RunNotifier_workflowId_idx" ON "RunNotifier"("workflowId");

-- CreateIndex
CREATE INDEX "RunNotifier_ownerId_idx" ON "RunNotifier"("ownerId");

-- CreateIndex
CREATE INDEX "NotificationDelivery_status_updatedAt_idx" ON "NotificationDelivery"("status", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationDelivery_notifierId_runId_key" ON "NotificationDelivery"("notifierId", "runId");

-- CreateIndex
CREATE INDEX "Run_workflowVersionId_idx" ON "Run"("workflowVersionId");

-- AddForeignKey
ALTER TABLE "RunNotifier" ADD CONSTRAINT "RunNotifier_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunNotifier" ADD CONSTRAINT "RunNotifier_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationDelivery" ADD CONSTRAINT "NotificationDelivery_notifierId_fkey" FOREIGN KEY ("notifierId") REFERENCES "RunNotifier"("id") ON DELETE CASCADE ON UPDATE CASCADE;
