import "server-only";
import type { EventsPort, StoredEvent } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { apiRedis, runEventsChannel, withRedisDeadline } from "@/lib/queue";

const log = createLogger({ component: "events" });

/**
 * Wakes a run's live viewers AFTER the events were committed: PUBLISH `<prefix>:run-events:<runId>`
 * with the last stored seq as a hint. Viewers never send the payload; they re-read PostgreSQL after
 * their last sent seq, so a lost or duplicated wake-up costs latency, never a gap or a duplicate.
 * Best effort: errors (Redis down) are logged, never thrown.
 */
export async function publishRunWake(runId: string, lastSeq: number): Promise<void> {
  try {
    await withRedisDeadline("publish wake-up", apiRedis().publish(runEventsChannel(runId), String(lastSeq)));
  } catch (err) {
    log.warn("wake-up not published; viewers will catch up on their next poll", { runId, lastSeq, err });
  }
}

/** The engine's EventsPort over Redis pub/sub (see publishRunWake). */
export const redisEventsPort: EventsPort = {
  async published(runId: string, events: StoredEvent[]): Promise<void> {
    const last = events.at(-1);
    if (last) await publishRunWake(runId, last.seq);
  },
};
