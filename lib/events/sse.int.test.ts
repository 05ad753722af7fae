import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/engine/events";
import { closeApiRedis } from "@/lib/queue";
import { createTestRun, createTestUser } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { closeRunEventHub } from "./hub";
import { publishRunEvents } from "./publish";
import { runEventStream } from "./sse";
import { readEvents } from "./event-log";
import { appendTestEvents, progressEvent as progress } from "./testing/append";
import { SseParser, type SseFrame } from "./testing/sse";

useTestDatabase();
const prefix = testQueuePrefix();
let user: Awaited<ReturnType<typeof createTestUser>>;

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = prefix;
  user = await createTestUser();
});

afterAll(async () => {
  await closeRunEventHub();
  await closeApiRedis();
});

/** Commits without waking anyone: the tests publish (or not) themselves. */
const commit = (runId: string, events: RunEvent[], finish = false) =>
  appendTestEvents(runId, events, { finish, wake: "none" });

/** A stream whose only safety-net read is a minute away: anything sent sooner came from a wake-up. */
function open(runId: string) {
  const controller = new AbortController();
  const stream = runEventStream({
    runId,
    afterSeq: 0,
    request: new Request("http://x/", { signal: controller.signal }),
    heartbeatMs: 60_000,
  });
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const seen: SseFrame[] = [];
  let ended = false;
  const pumping = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const f of parser.push(decoder.decode(value, { stream: true }))) {
        if (f.event === "end") ended = true;
        else if (f.id !== undefined) seen.push(f);
      }
    }
  })();
  return { seen, ended: () => ended, close: async () => (controller.abort(), await pumping) };
}

async function waitFor(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("runEventStream tail", () => {
  it(
    "sends pushed envelopes at once, reads the store on a seq gap, never sends a seq twice",
    { timeout: 60_000 },
    async () => {
      const runId = await createTestRun(user.id);
      const s = open(runId);
      await new Promise((r) => setTimeout(r, 500)); // subscribed and replayed (nothing yet)
      const pushed = await commit(runId, [progress(1)]);
      await publishRunEvents(runId, pushed);
      await waitFor(() => s.seen.length === 1);

      // seq 2-3 committed with no wake-up: nothing is sent until a later wake-up shows the gap
      const silent = await commit(runId, [progress(2), progress(3)]);
      await new Promise((r) => setTimeout(r, 300));
      expect(s.seen).toHaveLength(1);
      const later = await commit(runId, [progress(4)]);
      await publishRunEvents(runId, later);
      await waitFor(() => s.seen.length === 4);

      // duplicated and overtaken wake-ups change nothing; the run's end is confirmed from the store
      await publishRunEvents(runId, silent);
      await publishRunEvents(runId, pushed);
      const finish = await commit(runId, [{ type: "run_finished", status: "succeeded", reason: "done" }], true);
      await publishRunEvents(runId, finish);
      await waitFor(() => s.ended());
      await s.close();
      const stored = await readEvents(runId, 0);
      expect(s.seen.map((f) => Number(f.id))).toEqual([1, 2, 3, 4, 5]);
      expect(s.seen.map((f) => JSON.parse(f.data))).toEqual(stored);
    },
  );

  it("a hint-only wake-up (too large to carry, or a cancel) reads the store", { timeout: 60_000 }, async () => {
    const runId = await createTestRun(user.id);
    const s = open(runId);
    await new Promise((r) => setTimeout(r, 500));
    const big = { type: "step_progress", nodeId: "a", iteration: 1, message: "x".repeat(80_000) } as const;
    const stored = await commit(runId, [big, progress(2)]);
    await publishRunEvents(runId, stored); // over WAKE_PAYLOAD_MAX_BYTES: published as {"last":2}
    await waitFor(() => s.seen.length === 2);
    await s.close();
    expect(s.seen.map((f) => JSON.parse(f.data))).toEqual(await readEvents(runId, 0));
  });
});
