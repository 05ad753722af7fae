-- Recovery: error-policy retries, retry from the failed step, forks, and the dispatch-failure cap.
-- A step whose try failed waits for its retry as 'retrying'. A retry or fork names the run it
-- derives from (lineage) and carries what it reuses of it ("seed"). A run whose job keeps throwing
-- before its first commit counts those failures and fails at the cap.
ALTER TYPE "RunTrigger" ADD VALUE 'retry';
ALTER TYPE "RunTrigger" ADD VALUE 'fork';

ALTER TYPE "StepStatus" ADD VALUE 'retrying' AFTER 'waiting';

ALTER TABLE "Run" ADD COLUMN "dispatchFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "seed" JSONB,
ADD COLUMN "sourceIteration" INTEGER,
ADD COLUMN "sourceNodeId" TEXT,
ADD COLUMN "sourceRunId" TEXT;

CREATE INDEX "Run_sourceRunId_idx" ON "Run"("sourceRunId");

ALTER TABLE "Run" ADD CONSTRAINT "Run_sourceRunId_fkey" FOREIGN KEY ("sourceRunId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;
