-- Subflow nodes: a run started by another run's step, and how deep such runs nest
ALTER TYPE "RunTrigger" ADD VALUE 'subflow';

ALTER TABLE "Run" ADD COLUMN "parentRunId" TEXT,
ADD COLUMN "parentNodeId" TEXT,
ADD COLUMN "parentIteration" INTEGER,
ADD COLUMN "depth" INTEGER NOT NULL DEFAULT 0;

CREATE INDEX "Run_parentRunId_idx" ON "Run"("parentRunId");

ALTER TABLE "Run" ADD CONSTRAINT "Run_parentRunId_fkey" FOREIGN KEY ("parentRunId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;
