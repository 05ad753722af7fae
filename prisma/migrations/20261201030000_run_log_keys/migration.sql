-- RunEvent: (runId, seq) is the event log's key. The bigserial "id" (a sequence call and a second
-- unique index on every event insert, about four per step) identified nothing a reader used.
ALTER TABLE "RunEvent" DROP CONSTRAINT "RunEvent_pkey";
ALTER TABLE "RunEvent" DROP COLUMN "id";
ALTER TABLE "RunEvent" ADD CONSTRAINT "RunEvent_pkey" PRIMARY KEY USING INDEX "RunEvent_runId_seq_key";

-- Step: the unique index on ("runId", "nodeId", "iteration") already serves look-ups by "runId".
DROP INDEX "Step_runId_idx";
