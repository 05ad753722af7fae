-- CreateTable
CREATE TABLE "KbCollection" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "embeddingModel" TEXT,
    "dimensions" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "KbCollection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KbDocument" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "collectionId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "title" TEXT,
    "text" TEXT NOT NULL,
    "pageCount" INTEGER,
    "chunkCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KbDocument_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KbChunk" (
    "id" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "collectionId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "startOffset" INTEGER NOT NULL,
    "endOffset" INTEGER NOT NULL,
    "page" INTEGER,
    "heading" TEXT,
    "tokens" INTEGER NOT NULL,
    "embedding" REAL[],
    "tsv" tsvector,

    CONSTRAINT "KbChunk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "KbCollection_ownerId_name_key" ON "KbCollection"("ownerId", "name");

-- CreateIndex
CREATE INDEX "KbDocument_ownerId_idx" ON "KbDocument"("ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "KbDocument_collectionId_sha256_key" ON "KbDocument"("collectionId", "sha256");

-- CreateIndex
CREATE INDEX "KbChunk_collectionId_idx" ON "KbChunk"("collectionId");

-- CreateIndex
CREATE INDEX "KbChunk_tsv_idx" ON "KbChunk" USING GIN ("tsv");

-- CreateIndex
CREATE UNIQUE INDEX "KbChunk_documentId_ordinal_key" ON "KbChunk"("documentId", "ordinal");

-- AddForeignKey
ALTER TABLE "KbCollection" ADD CONSTRAINT "KbCollection_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KbDocument" ADD CONSTRAINT "KbDocument_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "KbCollection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KbChunk" ADD CONSTRAINT "KbChunk_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "KbDocument"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KbChunk" ADD CONSTRAINT "KbChunk_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "KbCollection"("id") ON DELETE CASCADE ON UPDATE CASCADE;
