import "server-only";
import { createMissedDeliveries, createRunDeliveries, stalePendingDeliveries } from "@/lib/db/deliveries";
import { createLogger } from "@/lib/logger";
import { enqueueDelivery } from "@/lib/queue";

const log = createLogger({ component: "notifications" });

async function enqueueAll(ids: readonly string[]): Promise<number> {
  let enqueued = 0;
  for (const id of ids) {
    try {
      await enqueueDelivery(id);
      enqueued++;
    } catch (err) {
      log.warn("notification not enqueued; the sweep will", { deliveryId: id, err: err instanceof Error ? err.message : String(err) });
    }
  }
  return enqueued;
}

/**
 * A run ended: writes its deliveries to the outbox and enqueues them. Never throws (a run's end must
 * not fail for its notifications): a failure is logged and the worker's sweep catches up.
 */
export async function notifyRunEnded(runId: string): Promise<number> {
  try {
    return await enqueueAll(await createRunDeliveries(runId));
  } catch (err) {
    log.warn("run notifications not recorded; the sweep will", { runId, err: err instanceof Error ? err.message : String(err) });
    return 0;
  }
}

/**
 * The worker's periodic catch-up: deliveries for runs that ended lately without them (a crash
 * between the end and notifyRunEnded), and pending deliveries whose job is gone (Redis lost).
 */
export async function sweepNotifications(): Promise<{ created: number; enqueued: number }> {
  const created = await createMissedDeliveries();
  const stale = await stalePendingDeliveries();
  const ids = [...new Set([...created, ...stale])];
  return { created: created.length, enqueued: await enqueueAll(ids) };
}
