import "server-only";
import { randomBytes } from "node:crypto";
import type { Queue } from "bullmq";
import { withRedisDeadline } from "./connection";
import type { RunJobData, RunJobReason } from "./jobs";
import { runDedupId, RUNS_QUEUE } from "./names";
import { closeProducerQueue, producerQueue } from "./producer";
import { RUN_JOB_OPTIONS } from "./settings";

/** The runs queue on the shared fail-fast connection, for producers (API, reconciler). */
export const runsQueue = (): Queue<RunJobData> => producerQueue<RunJobData>(RUNS_QUEUE);

/** Closes the producer queue (not the shared connection; see closeApiRedis). */
export const closeRunsQueue = (): Promise<void> => closeProducerQueue(RUNS_QUEUE);

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
 * `priority` (BullMQ's, none by default; experiments-queue.ts runPriority): an experiment's runs wait
 * behind every unprioritised job, at their start and at every resume.
 */
export async function enqueueRun(
  runId: string,
  reason: RunJobReason = "start",
  opts: { priority?: number } = {},
): Promise<EnqueueResult> {
  const data: RunJobData = { runId, reason, enqueuedAt: Date.now() };
  const queue = runsQueue();
  const wanted = `run-${runId}-${randomBytes(4).toString("hex")}`;
  const job = await withRedisDeadline(
    "enqueue run",
    queue.add("run", data, {
      ...RUN_JOB_OPTIONS,
      jobId: wanted,
      ...(opts.priority ? { priority: opts.priority } : {}),
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
  return (
    state === "waiting" ||
    state === "active" ||
    state === "delayed" ||
    state === "prioritized" ||
    state === "waiting-children"
  );
}

/**
 * Dispatches a run later (a run whose steps wait for their error-policy retries sleeps instead of
 * holding a worker): one job, deduplicated like enqueueRun, that starts in `delayMs`. Enqueued by
 * the run's own job as it ends, the job is kept as the run's next one (`keepLastIfActive`) and
 * delayed from then. A reconciler pass finds it live (delayed); a cancel or an answer promotes it
 * (wakeRunJob).
 */
export async function enqueueRunLater(
  runId: string,
  reason: RunJobReason,
  delayMs: number,
  opts: { priority?: number } = {},
): Promise<EnqueueResult> {
  const data: RunJobData = { runId, reason, enqueuedAt: Date.now() };
  const wanted = `run-${runId}-${randomBytes(4).toString("hex")}`;
  const job = await withRedisDeadline(
    "enqueue run later",
    runsQueue().add("run", data, {
      ...RUN_JOB_OPTIONS,
      jobId: wanted,
      delay: Math.max(0, Math.round(delayMs)),
      ...(opts.priority ? { priority: opts.priority } : {}),
      deduplication: { id: runDedupId(runId), keepLastIfActive: true },
    }),
  );
  const jobId = job.id ?? wanted;
  return { jobId, deduplicated: jobId !== wanted };
}

/**
 * Makes a run's delayed job (a sleeping run's: enqueueRunLater) start now, so a cancel or a review's
 * answer does not wait for the retry's backoff. Answers whether it promoted one (false: the run has
 * no delayed job, or it just started).
 */
export async function wakeRunJob(runId: string): Promise<boolean> {
  const queue = runsQueue();
  const jobId = await withRedisDeadline("look up run job", queue.getDeduplicationJobId(runDedupId(runId)));
  if (!jobId) return false;
  const job = await withRedisDeadline("read run job", queue.getJob(jobId));
  if (!job || (await withRedisDeadline("job state", job.getState())) !== "delayed") return false;
  return withRedisDeadline("promote run job", job.promote()).then(
    () => true,
    () => false,
  );
}
