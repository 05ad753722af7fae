import "server-only";
import type { EventsPort, StoredEvent } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { apiRedis, runEventsChannel, withRedisDeadline } from "@/lib/queue";
import { envelopeOf } from "./event-log";
import { encodeWake } from "./wake";

const log = createLogger({ component: "events" });

async function publish(runId: string, lastSeq: number, message: string): Promise<void> {
  try {
    await withRedisDeadline("publish wake-up", apiRedis().publish(runEventsChannel(runId), message));
  } catch (err) {
    log.warn("wake-up not published; viewers will catch up on their next poll", { runId, lastSeq, err });
  }
}

/**
 * Wakes a run's live viewers AFTER events were committed, with only the last stored seq as a hint:
 * viewers re-read PostgreSQL after their last sent seq. For writers that do not hold the stored
 * events (a cancel done in SQL). Best effort: errors (Redis down) are logged, never thrown.
 */
export async function publishRunWake(runId: string, lastSeq: number): Promise<void> {
  await publish(runId, lastSeq, encodeWake(lastSeq));
}

/**
 * Wakes a run's live viewers AFTER `stored` was committed, carrying the committed envelopes
 * (seq-stamped, see lib/events/wake.ts) so a viewer that is up to date sends them without reading
 * PostgreSQL; one that sees a seq gap reads PostgreSQL. Batches over WAKE_PAYLOAD_MAX_BYTES go out
 * as a hint only. Best effort, like publishRunWake.
 */
export async function publishRunEvents(runId: string, stored: readonly StoredEvent[]): Promise<void> {
  const last = stored.at(-1);
  if (!last) return;
  await publish(
    runId,
    last.seq,
    encodeWake(
      last.seq,
      stored.map((s) => envelopeOf(runId, s)),
    ),
  );
}

/** The engine's EventsPort over Redis pub/sub (see publishRunEvents). */
export const redisEventsPort: EventsPort = {
  async published(runId: string, events: StoredEvent[]): Promise<void> {
    await publishRunEvents(runId, events);
  },
};
