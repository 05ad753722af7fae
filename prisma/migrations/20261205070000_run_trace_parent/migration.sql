-- The W3C traceparent a run was started under (OpenTelemetry): every job of the run continues that trace.
-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "traceParent" TEXT;
