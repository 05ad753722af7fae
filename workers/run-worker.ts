import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { systemClock } from "@/lib/engine/clock";
import { runJob, type DriverOutcome } from "@/lib/engine/driver";
import { createLogger, type Logger } from "@/lib/logger";
import { notifyRunEnded, notifyRunWaiting } from "@/lib/notifications/outbox";
import {
  createWorkerConnection,
  parseJobData,
  queuePrefix,
  runJobSchema,
  RUNS_QUEUE,
  RUNS_WORKER_STALL_SETTINGS,
  type RunJobData,
} from "@/lib/queue";
import type { LivenessPort } from "@/lib/engine/ports";
import { resumeIfAnswered } from "@/lib/runs/answers";
import { recordDispatchFailure } from "@/workers/dispatch-failures";
import { settleParent, settleSubflowSteps, subflowLinks } from "@/lib/runs/subflow-answers";
import { cancelChildRuns } from "@/lib/runs/subflows";
import { enginePorts, type PortOverrides } from "./engine-ports";
import { leaseOwner, redisLiveness, WorkerHeartbeat } from "./liveness";
import { Reconciler } from "./reconciler";
import { settleHeld } from "@/lib/run-store/held-commit";
import { storeStats } from "@/lib/run-store/postgres-store";
import { awaitRunInsert } from "@/lib/run-store/run-insert";
import { closeRunStorePool } from "@/lib/run-store/run-sql";

const log = createLogger({ component: "worker" });

export interface RunWorkerOptions extends PortOverrides {
  /** Runs driven at once (default 20). */
  concurrency?: number;
  /** SIGTERM: how long in-flight steps may finish before being handed back (default 20 s). */
  graceMs?: number;
  /** Reconciler period (default 30 s); 0 disables the reconciler. */
  reconcileIntervalMs?: number;
}

/** A running worker: its BullMQ worker, reconciler and a graceful close. */
export interface RunWorker {
  readonly id: string;
  readonly worker: Worker<RunJobData, DriverOutcome>;
  readonly reconciler: Reconciler | undefined;
  /** This worker's heartbeat (the crash-loop rule tells crashes from takeovers by it). */
  readonly heartbeat: WorkerHeartbeat;
  /** Jobs being processed right now. */
  active(): number;
  /** Redis connection status ("ready" when healthy). */
  redisStatus(): string;
  /** Graceful stop: no new jobs, in-flight steps finish within graceMs or are handed back, connections closed. */
  close(): Promise<void>;
}

/**
 * Starts consuming the runs queue: each job claims its run and drives it with the real ports
 * (runJob). PostgreSQL is the source of truth, so a SIGKILL at any point loses nothing: the job
 * is re-delivered by BullMQ's stall check or re-created by the reconciler, and the driver resumes.
 */
export function startRunWorker(options: RunWorkerOptions = {}): RunWorker {
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const graceMs = options.graceMs ?? 20_000;
  const stop = new AbortController();
  const connection = createWorkerConnection("weft-worker");
  const heartbeat = new WorkerHeartbeat(connection as Redis, id);
  heartbeat.start();
  const liveness = redisLiveness(connection as Redis, id);
  let active = 0;
  const worker = new Worker<RunJobData, DriverOutcome>(
    RUNS_QUEUE,
    async (job) => {
      active++;
      try {
        return await processRunJob(job, id, stop.signal, graceMs, liveness, options);
      } finally {
        active--;
      }
    },
    {
      connection,
      prefix: queuePrefix(),
      concurrency: options.concurrency ?? 20,
      name: id,
      ...RUNS_WORKER_STALL_SETTINGS,
    },
  );
  worker.on("failed", (job, err) => log.error("run job failed", { jobId: job?.id, runId: job?.data.runId, err }));
  worker.on("error", (err) => log.warn("worker error", { err }));
  // BullMQ moved a job whose lock expired back to wait: its worker died, or is alive but starved or frozen (a takeover)
  worker.on("stalled", (jobId) => log.warn("stalled run job re-queued", { jobId }));
  const interval = options.reconcileIntervalMs ?? 30_000;
  const reconciler = interval > 0 ? new Reconciler(connection as Redis, id, interval) : undefined;
  reconciler?.start();
  log.info("worker started", { id, prefix: queuePrefix(), concurrency: options.concurrency ?? 20 });
  let closing: Promise<void> | undefined;
  return {
    id,
    worker,
    reconciler,
    heartbeat,
    active: () => active,
    redisStatus: () => connection.status,
    close: () => (closing ??= shutdown(worker, reconciler, heartbeat, connection, stop, id)),
  };
}

async function shutdown(
  worker: Worker,
  reconciler: Reconciler | undefined,
  heartbeat: WorkerHeartbeat,
  connection: Redis,
  stop: AbortController,
  id: string,
): Promise<void> {
  log.info("worker stopping: no new jobs; in-flight runs finish their steps or are handed back", { id });
  stop.abort();
  await reconciler?.stop();
  await worker.close();
  await heartbeat.stop();
  await connection.quit().catch(() => connection.disconnect());
  await closeRunStorePool().catch((err: unknown) => log.warn("closing the run-store pool failed", { err }));
  log.info("worker stopped", { id, store: storeStats() });
}

/**
 * startRun writes a run's row and its job at the same time, so a worker may take the job before the
 * row is committed. A job whose run is not found first waits for the row's insert, if one is in
 * flight, to end (lib/run-store/run-insert.ts awaitRunInsert) and is claimed again at once; if the run is still
 * not found (the insert had not begun, or wrote nothing), it is claimed again, with growing pauses,
 * until this long after it was enqueued (at most this long after it was taken, whatever the clocks say).
 */
export const EARLY_JOB_MS = 2_000;
const EARLY_JOB_PAUSES_MS = [2, 5, 10, 25, 50, 100, 200, 400];

/** Waits until the run's insert in flight, if any, has ended; false when the wait itself failed (the pauses take over). */
async function insertEnded(runId: string, logger: Logger): Promise<boolean> {
  try {
    await awaitRunInsert(runId);
    return true;
  } catch (err) {
    logger.warn("waiting for the run's insert failed; claiming again after pauses", { err });
    return false;
  }
}

/**
 * A job that threw: counted against its run if the run has committed nothing yet; at the cap the run
 * failed (lib/runs dispatch-failures.ts) and the job ends with it, otherwise the error is thrown on
 * (BullMQ retries the job, the reconciler dispatches the run again).
 */
async function failedBeforeStart(runId: string, err: unknown): Promise<DriverOutcome> {
  const verdict = await recordDispatchFailure(runId, err).catch(() => null);
  if (verdict?.failed) return { kind: "terminal", status: "failed", reason: verdict.reason };
  throw err;
}

async function processRunJob(
  job: Job<RunJobData>,
  workerId: string,
  stop: AbortSignal,
  graceMs: number,
  liveness: LivenessPort,
  overrides: PortOverrides,
): Promise<DriverOutcome> {
  const data = parseJobData(RUNS_QUEUE, runJobSchema, job.data);
  const owner = leaseOwner(workerId, job.id ?? "?", job.attemptsStarted);
  const logger = log.child({ runId: data.runId, jobId: job.id, reason: data.reason });
  const drive = () =>
    runJob({ ...enginePorts(null, logger, overrides, { priority: job.opts.priority }), liveness }, data.runId, {
      owner,
      stop,
      stopGraceMs: Math.max(0, graceMs - 1_000),
    }).catch((err: unknown) => failedBeforeStart(data.runId, err));
  let outcome = await drive();
  const until = Math.min(Date.now(), data.enqueuedAt) + EARLY_JOB_MS;
  if (outcome.kind === "not_found" && (await insertEnded(data.runId, logger)) && !stop.aborted) outcome = await drive();
  for (let i = 0; outcome.kind === "not_found" && Date.now() < until && !stop.aborted; i++) {
    await systemClock
      .sleep(EARLY_JOB_PAUSES_MS[Math.min(i, EARLY_JOB_PAUSES_MS.length - 1)]!, stop)
      .catch(() => undefined);
    if (!stop.aborted) outcome = await drive();
  }
  // a run whose end went to its step log has its rows written right after the end's wake-up: the job
  // ends once they are (a failure fails the job; the run's next claim folds the end)
  await settleHeld(data.runId);
  logger.info("run job done", { outcome });
  // after the end is committed and published: a notification never delays the run's own end; a
  // subflow's child answers its parent's step, and a parent's children still going are cancelled
  if (outcome.kind === "terminal") {
    await notifyRunEnded(data.runId);
    // best effort: the reconciler's pass settles what a failure here leaves (reconcileSubflows)
    await subflowLinks(data.runId)
      .then(async (links) => {
        if (links.hasParent) await settleParent(data.runId);
        if (links.liveChildren) await cancelChildRuns(data.runId);
      })
      .catch((err: unknown) =>
        logger.warn("subflow links after the run's end failed; the reconciler settles them", { err }),
      );
  }
  // an answer stored while this job was parking the run (a person's, or a child run that ended
  // meanwhile) found it still running: wake it now; otherwise tell whoever listens that a review waits
  if (outcome.kind === "waiting") {
    await settleSubflowSteps(data.runId).catch((err: unknown) =>
      logger.warn("settling subflow steps failed; the reconciler will", { err }),
    );
    const woken = await resumeIfAnswered(data.runId);
    if (!woken && outcome.steps > 0) await notifyRunWaiting(data.runId);
  }
  return outcome;
}
