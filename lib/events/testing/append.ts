import "server-only";
import { db } from "@/lib/db/client";
import type { RunEvent } from "@/lib/engine/events";
import type { StoredEvent } from "@/lib/engine/ports";
import { publishRunEvents, publishRunWake } from "@/lib/events/publish";
import { appendEvents } from "@/lib/events/event-log";

/**
 * How a test append wakes live viewers: "events" as the worker does (the committed envelopes in the
 * wake-up), "hint" with only the last seq (viewers re-read PostgreSQL), "none" not at all.
 */
export type TestWake = "events" | "hint" | "none";

/** Options for appendTestEvents: `finish` marks the run succeeded in the same transaction (default false); `wake` default "hint". */
export type TestAppendOptions = { finish?: boolean; wake?: TestWake };

/** Generous transaction waits: tests append concurrently on a loaded machine. */
const TX = { maxWait: 30_000, timeout: 30_000 };

/**
 * Test helper: commits `events` to a run's log in one transaction (as the engine's state commit
 * does), then wakes viewers as `wake` says. Returns the stored events (seq-stamped).
 */
export async function appendTestEvents(
  runId: string,
  events: RunEvent[],
  opts: TestAppendOptions = {},
): Promise<StoredEvent[]> {
  const stored = await db().$transaction(async (tx) => {
    const s = await appendEvents(tx, runId, events);
    if (opts.finish) await tx.run.update({ where: { id: runId }, data: { status: "succeeded", reason: "done" } });
    return s;
  }, TX);
  const last = stored.at(-1);
  const wake = opts.wake ?? "hint";
  if (last && wake === "events") await publishRunEvents(runId, stored);
  else if (last && wake === "hint") await publishRunWake(runId, last.seq);
  return stored;
}

/** Test helper: the i-th step_progress event of node "a" (message `m<i>`), a small event to append in bulk. */
export const progressEvent = (i: number): RunEvent => ({
  type: "step_progress",
  nodeId: "a",
  iteration: 1,
  message: `m${i}`,
});
