import "server-only";
import type { Queue } from "bullmq";
import * as z from "zod";
import { env } from "@/lib/env";
import { withRedisDeadline } from "./connection";
import { closeProducerQueue, producerQueue } from "./producer";

/** The queue of run notifications: one job per NotificationDelivery row, retried with backoff. */
export const NOTIFICATIONS_QUEUE = "notifications";

export const notificationJobSchema = z.object({ deliveryId: z.string().min(1).max(64) });
export type NotificationJobData = z.infer<typeof notificationJobSchema>;

export const notificationsQueue = (): Queue<NotificationJobData> =>
  producerQueue<NotificationJobData>(NOTIFICATIONS_QUEUE);

export const closeNotificationsQueue = (): Promise<void> => closeProducerQueue(NOTIFICATIONS_QUEUE);

/**
 * Enqueues a delivery (idempotent: the job id is the delivery's, so a second add while the job
 * waits, is delayed between tries or runs is a no-op; `again`: a redelivery the owner asked for). WEFT_NOTIFY_ATTEMPTS tries, exponential
 * backoff from WEFT_NOTIFY_BACKOFF_MS. AppError("unavailable") when Redis is down.
 */
export async function enqueueDelivery(deliveryId: string, opts: { again?: boolean } = {}): Promise<void> {
  const e = env();
  await withRedisDeadline(
    "enqueue notification",
    notificationsQueue().add(
      "deliver",
      { deliveryId },
      {
        // a redelivery needs a job id of its own: the first job's is kept (completed or failed) for a while
        jobId: opts.again ? `delivery-${deliveryId}-again-${Date.now()}` : `delivery-${deliveryId}`,
        attempts: e.WEFT_NOTIFY_ATTEMPTS,
        backoff: { type: "exponential", delay: e.WEFT_NOTIFY_BACKOFF_MS },
        removeOnComplete: 1000,
        removeOnFail: 1000,
      },
    ),
  );
}
