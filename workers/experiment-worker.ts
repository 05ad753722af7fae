import "server-only";
import { Worker } from "bullmq";
import { db } from "@/lib/db/client";
import { driveExperiment } from "@/lib/evals/coordinator";
import { createLogger } from "@/lib/logger";
import {
  closeExperimentsQueue,
  createWorkerConnection,
  enqueueExperiment,
  EXPERIMENTS_QUEUE,
  experimentJobSchema,
  parseJobData,
  queuePrefix,
  RUNS_WORKER_STALL_SETTINGS,
  type ExperimentJobData,
} from "@/lib/queue";

const log = createLogger({ component: "experiment-worker" });

export interface ExperimentWorker {
  readonly worker: Worker<ExperimentJobData, string>;
  /** Enqueues every queued or running experiment (a lost job is dispatched again); also every `sweepIntervalMs`. */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Drives experiments in the worker process (lib/evals/coordinator.ts): each job is one experiment,
 * from its first run to its last score. Its own queue, with the runs queue's stall settings, so a
 * dead worker's experiment is delivered again within 15 s and resumes from PostgreSQL. On close the
 * loops stop and their jobs are handed back (thrown, so BullMQ delivers them again).
 */
export function startExperimentWorker(
  options: { concurrency?: number; sweepIntervalMs?: number; pollMs?: number } = {},
): ExperimentWorker {
  const connection = createWorkerConnection("weft-experiments");
  const stop = new AbortController();
  const worker = new Worker<ExperimentJobData, string>(
    EXPERIMENTS_QUEUE,
    async (job) => {
      const { experimentId } = parseJobData(EXPERIMENTS_QUEUE, experimentJobSchema, job.data);
      const outcome = await driveExperiment(experimentId, { signal: stop.signal, pollMs: options.pollMs });
      if (outcome === "stopped") throw new Error("the worker is stopping; the experiment is handed back");
      return outcome;
    },
    { connection, prefix: queuePrefix(), concurrency: options.concurrency ?? 2, ...RUNS_WORKER_STALL_SETTINGS },
  );
  worker.on("error", (err) => log.warn("experiment worker error", { err }));
  worker.on("failed", (job, err) =>
    log.warn("experiment job failed", { experimentId: job?.data.experimentId, err: err.message }),
  );

  const sweep = async () => {
    try {
      const open = await db().experiment.findMany({
        where: { status: { in: ["queued", "running"] } },
        select: { id: true },
        take: 500,
      });
      for (const e of open) await enqueueExperiment(e.id);
    } catch (err) {
      log.warn("experiment sweep failed; next period retries", {
        err: err instanceof Error ? err.message : String(err),
      });
    }
  };
  void sweep();
  const interval = options.sweepIntervalMs ?? 30_000;
  const timer = interval > 0 ? setInterval(() => void sweep(), interval) : undefined;
  timer?.unref();
  return {
    worker,
    sweep,
    async close() {
      if (timer) clearInterval(timer);
      stop.abort();
      await worker.close();
      await closeExperimentsQueue();
      connection.disconnect();
    },
  };
}
