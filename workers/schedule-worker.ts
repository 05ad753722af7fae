import "server-only";
import { Worker } from "bullmq";
import { createLogger } from "@/lib/logger";
import {
  closeSchedulesQueue,
  createWorkerConnection,
  parseJobData,
  queuePrefix,
  scheduleJobSchema,
  SCHEDULES_QUEUE,
  type ScheduleJobData,
} from "@/lib/queue";
import { fireSchedule, reconcileSchedules, type FireOutcome } from "@/lib/schedules/fire";

const log = createLogger({ component: "schedule-worker" });

export interface ScheduleWorker {
  readonly worker: Worker<ScheduleJobData, FireOutcome>;
  /** Settles when the start's reconcile has finished. */
  readonly ready: Promise<void>;
  /** Runs the reconciler once now (also called every `reconcileIntervalMs`). */
  reconcile(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Consumes the schedules queue in the worker process: each job is one tick of one schedule
 * (lib/schedules/fire.ts), its planned time BullMQ's `prevMillis`. Rebuilds Redis's timers from
 * PostgreSQL at start and every `reconcileIntervalMs` (0: start only).
 */
export function startScheduleWorker(
  options: { reconcileIntervalMs?: number; concurrency?: number } = {},
): ScheduleWorker {
  const connection = createWorkerConnection("weft-schedules");
  const worker = new Worker<ScheduleJobData, FireOutcome>(
    SCHEDULES_QUEUE,
    async (job) => {
      const { scheduleId } = parseJobData(SCHEDULES_QUEUE, scheduleJobSchema, job.data);
      const tick = new Date(job.opts.prevMillis ?? job.timestamp);
      const outcome = await fireSchedule(scheduleId, tick);
      log.info("schedule fired", { scheduleId, tick: tick.toISOString(), ...outcome });
      return outcome;
    },
    { connection, prefix: queuePrefix(), concurrency: options.concurrency ?? 5 },
  );
  worker.on("failed", (job, err) =>
    log.error("schedule job failed", { jobId: job?.id, scheduleId: job?.data.scheduleId, err }),
  );
  worker.on("error", (err) => log.warn("schedule worker error", { err }));

  const reconcile = async () => {
    try {
      const { set, removed } = await reconcileSchedules();
      if (set || removed) log.info("schedule timers reconciled", { set, removed });
    } catch (err) {
      log.warn("schedule reconcile failed; next period retries", {
        err: err instanceof Error ? err.message : String(err),
      });
    }
  };
  const ready = reconcile();
  const interval = options.reconcileIntervalMs ?? 60_000;
  const timer = interval > 0 ? setInterval(() => void reconcile(), interval) : undefined;
  timer?.unref();
  return {
    worker,
    ready,
    reconcile,
    async close() {
      if (timer) clearInterval(timer);
      await worker.close();
      await closeSchedulesQueue();
      connection.disconnect();
    },
  };
}
