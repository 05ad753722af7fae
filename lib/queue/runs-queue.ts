import "server-only";
import { randomBytes } from "node:crypto";
import { Queue } from "bullmq";
import { apiRedis, withRedisDeadline } from "./connection";
import { runJobSchema, type RunJobData, type RunJobReason } from "./jobs";
import { queuePrefix, runDedupId, RUNS_QUEUE } from "./names";
import { RUN_JOB_OPTIONS } from "./settings";

const g = globalThis as unknown as { __weftRunsQueue?: { key: string; queue: Queue<RunJobData> } };

/** The runs queue on the shared fail-fast connection, for producers (API, reconciler). */
export function runsQueue(): Queue<RunJobData> {
  const conn = apiRedis();
  const key = `${queuePrefix()}|${conn.options.host}:${conn.options.port}|${conn.options.db ?? 0}`;
  if (!g.__weftRunsQueue || g.__weftRunsQueue.key !== key || g.__weftRunsQueue.queue.closing) {
    g.__weftRunsQueue = {
      key,
      queue: new Queue<RunJobData>(RUNS_QUEUE, { connection: conn, prefix: queuePrefix(), skipWaitingForReady: true }),
    };
  }
  return g.__weftRunsQueue.queue;
}

/** Closes the producer queue (not the shared connection; see closeApiRedis). */
export async function closeRunsQueue(): Promise<void> {
  const current = g.__weftRunsQueue;
  g.__weftRunsQueue = undefined;
  await current?.queue.close();
}

/** What enqueueRun did: a new job, or an existing job already covers the run. */
export interface EnqueueResult {
  jobId: string;
  deduplicated: boolean;
}

/**
 * Dispatches a run to the workers. Deduplicated by run (`run:<id>`) with BullMQ's
 * `keepLastIfActive`: a run has at most one waiting job and one active job, so
 * - a second enqueue while a job waits is a no-op;
 * - an enqueue while the run's job is *active* (e.g. a cancel or a resume that the running job may
 *   already have missed) leaves exactly one follow-up job that starts when the active one finishes;
 * - after the job finished, the dedup key is gone and the run can be enqueued again (resume).
 * Errors within API_REDIS_TIMEOUT_MS as AppError("unavailable") when Redis is down. The run row is
 * already committed by then, so the reconciler dispatches it later even if this call fails.
 */
export async function enqueueRun(runId: string, reason: RunJobReason = "start", fresh?: RunJobData["fresh"]): Promise<EnqueueResult> {
  const data = runJobSchema.parse({ runId, reason, enqueuedAt: Date.now(), ...(fresh ? { fresh } : {}) });
  const queue = runsQueue();
  const wanted = `run-${runId}-${randomBytes(4).toString("hex")}`;
  const job = await withRedisDeadline(
    "enqueue run",
    queue.add("run", data, {
      ...RUN_JOB_OPTIONS,
      jobId: wanted,
      deduplication: { id: runDedupId(runId), keepLastIfActive: true },
    }),
  );
  const jobId = job.id ?? wanted;
  return { jobId, deduplicated: jobId !== wanted };
}

/** Whether a live (waiting, delayed, active) job covers the run; used by the reconciler (D6). */
export async function hasLiveRunJob(runId: string): Promise<boolean> {
  const queue = runsQueue();
  const jobId = await withRedisDeadline("look up run job", queue.getDeduplicationJobId(runDedupId(runId)));
  if (!jobId) return false;
  const state = await withRedisDeadline("job state", queue.getJobState(jobId));
  return state === "waiting" || state === "active" || state === "delayed" || state === "prioritized" || state === "waiting-children";
}
