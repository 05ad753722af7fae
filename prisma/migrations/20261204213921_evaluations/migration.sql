-- Evaluations: datasets (versioned rows of inputs with references and tags), experiments that run
-- workflow versions over one dataset version, and their cells (one run per row and version, scored).
-- Runs an experiment starts carry the trigger 'experiment'.
-- CreateEnum
CREATE TYPE "ExperimentStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "ExperimentCellStatus" AS ENUM ('pending', 'running', 'scored', 'cancelled');

-- AlterEnum
ALTER TYPE "RunTrigger" ADD VALUE 'experiment';

-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "workflowId" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Dataset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetRow" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "inputs" JSONB NOT NULL,
    "reference" JSONB,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "sourceRunId" TEXT,
    "addedIn" INTEGER NOT NULL,
    "removedIn" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DatasetRow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Experiment" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "datasetVersion" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "variants" JSONB NOT NULL,
    "evaluators" JSONB NOT NULL,
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "status" "ExperimentStatus" NOT NULL DEFAULT 'queued',
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Experiment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExperimentCell" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "variant" INTEGER NOT NULL,
    "status" "ExperimentCellStatus" NOT NULL DEFAULT 'pending',
    "runId" TEXT,
    "runStatus" TEXT,
    "results" JSONB NOT NULL DEFAULT '[]',
    "score" DOUBLE PRECISION,
    "passed" BOOLEAN,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION,
    "latencyMs" INTEGER,
    "error" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExperimentCell_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Dataset_ownerId_name_key" ON "Dataset"("ownerId", "name");

-- CreateIndex
CREATE INDEX "DatasetRow_datasetId_ordinal_idx" ON "DatasetRow"("datasetId", "ordinal");

-- CreateIndex
CREATE INDEX "Experiment_ownerId_createdAt_idx" ON "Experiment"("ownerId", "createdAt");

-- CreateIndex
CREATE INDEX "Experiment_status_idx" ON "Experiment"("status");

-- CreateIndex
CREATE INDEX "ExperimentCell_experimentId_status_idx" ON "ExperimentCell"("experimentId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ExperimentCell_experimentId_rowId_variant_key" ON "ExperimentCell"("experimentId", "rowId", "variant");

-- AddForeignKey
ALTER TABLE "Dataset" ADD CONSTRAINT "Dataset_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetRow" ADD CONSTRAINT "DatasetRow_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExperimentCell" ADD CONSTRAINT "ExperimentCell_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
