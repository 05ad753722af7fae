import "server-only";
import {
  createMissedDeliveries,
  createMissedWaitingDeliveries,
  createRunDeliveries,
  createWaitingDeliveries,
  claimStalePendingDeliveries,
} from "@/lib/db/deliveries";
import { env } from "@/lib/env";
import { createLogger } from "@/lib/logger";
import { enqueueDelivery } from "@/lib/queue";

const log = createLogger({ component: "notifications" });

async function enqueueAll(ids: readonly string[], again = false): Promise<number> {
  let enqueued = 0;
  for (const id of ids) {
    try {
      await enqueueDelivery(id, { again });
      enqueued++;
    } catch (err) {
      log.warn("notification not enqueued; the sweep will", {
        deliveryId: id,
        err: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return enqueued;
}

/** Writes deliveries with `create` and enqueues them; never throws (a failure is logged, the sweep catches up). */
async function record(what: string, runId: string, create: (runId: string) => Promise<string[]>): Promise<number> {
  try {
    return await enqueueAll(await create(runId));
  } catch (err) {
    log.warn(`${what} notifications not recorded; the sweep will`, {
      runId,
      err: err instanceof Error ? err.message : String(err),
    });
    return 0;
  }
}

/**
 * A run ended: writes its deliveries to the outbox and enqueues them. Never throws (a run's end must
 * not fail for its notifications): a failure is logged and the worker's sweep catches up.
 */
export const notifyRunEnded = (runId: string): Promise<number> => record("run", runId, createRunDeliveries);

/**
 * A run parked waiting for a human review: tells every listening notifier (run.waiting), once per
 * wait. Never throws, like notifyRunEnded; the sweep catches up.
 */
export const notifyRunWaiting = (runId: string): Promise<number> =>
  record("waiting-run", runId, createWaitingDeliveries);

/**
 * The worker's periodic catch-up: deliveries for runs that ended lately without them (a crash
 * between the end and notifyRunEnded), and pending deliveries whose job is gone (Redis lost).
 */
export async function sweepNotifications(): Promise<{ created: number; enqueued: number }> {
  const created = [...(await createMissedDeliveries()), ...(await createMissedWaitingDeliveries())];
  // claimed and touched in one statement: a row whose job is only slow (a long backlog) gets one more
  // job per full wait, not one per sweep, and two sweeps at once never both take it
  const stale = (await claimStalePendingDeliveries(lostJobAfterMs())).filter((id) => !created.includes(id));
  // a lost job's id may still be taken by its finished predecessor, so those get a fresh job id
  return { created: created.length, enqueued: (await enqueueAll(created)) + (await enqueueAll(stale, true)) };
}

/**
 * How long a pending delivery may sit untouched before its job counts as lost: twice the longest
 * wait between two tries (WEFT_NOTIFY_BACKOFF_MS doubled per try), at least a minute. A job still
 * waiting out its backoff touches its row on each try, so it is never taken for lost.
 */
export function lostJobAfterMs(): number {
  const e = env();
  return Math.max(60_000, 2 * e.WEFT_NOTIFY_BACKOFF_MS * 2 ** Math.max(0, e.WEFT_NOTIFY_ATTEMPTS - 2));
}
