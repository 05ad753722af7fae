-- Human review nodes: runs and steps that wait for a person.
ALTER TYPE "RunStatus" ADD VALUE 'waiting' AFTER 'running';
ALTER TYPE "StepStatus" ADD VALUE 'waiting' AFTER 'running';

ALTER TABLE "Run" ADD COLUMN "waitingSince" TIMESTAMP(3),
ADD COLUMN "pausedMs" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "Step" ADD COLUMN "answer" JSONB;
