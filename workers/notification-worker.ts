import "server-only";
import { Worker } from "bullmq";
import { createLogger } from "@/lib/logger";
import {
  closeNotificationsQueue,
  createWorkerConnection,
  NOTIFICATIONS_QUEUE,
  notificationJobSchema,
  parseJobData,
  queuePrefix,
  type NotificationJobData,
} from "@/lib/queue";
import { recordDeliveryAttempt } from "@/lib/db/deliveries";
import { deliverNotification, type DeliveryOutcome } from "@/lib/notifications/deliver";
import { sweepNotifications } from "@/lib/notifications/outbox";

const log = createLogger({ component: "notification-worker" });

export interface NotificationWorker {
  readonly worker: Worker<NotificationJobData, DeliveryOutcome>;
  /** Runs the sweep once now (also called every `sweepIntervalMs`). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Delivers run notifications in the worker process: each job is one try of one delivery (its tries
 * and backoff are the job's: lib/queue enqueueDelivery); a try that asks for another throws, so
 * BullMQ schedules it. Sweeps the outbox at start and every `sweepIntervalMs` (0: start only).
 */
export function startNotificationWorker(
  options: { sweepIntervalMs?: number; concurrency?: number } = {},
): NotificationWorker {
  const connection = createWorkerConnection("weft-notifications");
  const worker = new Worker<NotificationJobData, DeliveryOutcome>(
    NOTIFICATIONS_QUEUE,
    async (job) => {
      const { deliveryId } = parseJobData(NOTIFICATIONS_QUEUE, notificationJobSchema, job.data);
      const finalTry = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      let outcome: DeliveryOutcome;
      try {
        outcome = await deliverNotification(deliveryId, finalTry);
      } catch (err) {
        // not the receiver's doing (the database, a secret that no longer decrypts): tried again like a
        // 5xx, and on the last try recorded as failed, so the sweep does not pick the row up forever
        if (finalTry)
          await recordDeliveryAttempt(deliveryId, {
            status: "failed",
            error: `Not sent: ${err instanceof Error ? err.message : String(err)}`,
          }).catch(() => undefined);
        throw err;
      }
      log.info("notification tried", { deliveryId, attempt: job.attemptsMade + 1, ...outcome });
      if (outcome.kind === "retry") throw new Error(outcome.error);
      return outcome;
    },
    { connection, prefix: queuePrefix(), concurrency: options.concurrency ?? 10 },
  );
  worker.on("error", (err) => log.warn("notification worker error", { err }));

  const sweep = async () => {
    try {
      const { created, enqueued } = await sweepNotifications();
      if (created || enqueued) log.info("notification outbox swept", { created, enqueued });
    } catch (err) {
      log.warn("notification sweep failed; next period retries", {
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
      await worker.close();
      await closeNotificationsQueue();
      connection.disconnect();
    },
  };
}
