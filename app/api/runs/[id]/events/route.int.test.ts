import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/engine/events";
import { resetEnvCache } from "@/lib/env";
import { closeRevocations, revocationListenerCount } from "@/lib/queue/revocations";
import { revokeApiToken } from "@/lib/db/api-tokens";
import { db } from "@/lib/db/client";
import { closeApiRedis, createWorkerConnection } from "@/lib/queue";
import { createTestRun, createTestUser } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { GET } from "./route";
import { closeRunEventHub, runEventHub } from "@/lib/events/hub";
import { sseStats } from "@/lib/events/sse";
import { readEvents } from "@/lib/events/event-log";
import { appendTestEvents, progressEvent as progress, type TestWake } from "@/lib/events/testing/append";
import { SseParser, type SseFrame } from "@/lib/events/testing/sse";

useTestDatabase();
const prefix = testQueuePrefix();
let user: Awaited<ReturnType<typeof createTestUser>>;

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = prefix;
  process.env.WEFT_SSE_HEARTBEAT_MS = "200";
  resetEnvCache();
  user = await createTestUser();
});

afterAll(async () => {
  await closeRunEventHub();
  await closeRevocations();
  await closeApiRedis();
});

/** Commits `events`, then wakes viewers the way the worker does (envelopes in the wake-up), or with a bare hint. */
const append = (runId: string, events: RunEvent[], finish = false, wake: TestWake = "events") =>
  appendTestEvents(runId, events, { finish, wake });

function request(
  runId: string,
  lastEventId: number | null,
  signal?: AbortSignal,
  auth = user.auth,
): [Request, { params: Promise<{ id: string }> }] {
  const headers: Record<string, string> = { ...auth };
  if (lastEventId !== null) headers["last-event-id"] = String(lastEventId);
  return [
    new Request(`http://localhost/api/runs/${runId}/events`, { headers, signal }),
    { params: Promise.resolve({ id: runId }) },
  ];
}

describe("GET /api/runs/[id]/events", () => {
  it(
    "S1: a 500-event run read with ≥ 50 random disconnects gives the stored sequence (no gap, no duplicate)",
    { timeout: 120_000 },
    async () => {
      const runId = await createTestRun(user.id);
      const writer = (async () => {
        for (let i = 0; i < 110; i++) {
          await append(
            runId,
            Array.from({ length: 1 + (i % 9) }, (_, k) => progress(i * 100 + k)),
            false,
            i % 5 === 4 ? "hint" : "events",
          );
          await new Promise((r) => setTimeout(r, Math.random() * 15));
        }
        await append(runId, [{ type: "run_finished", status: "succeeded", reason: "done" }], true);
      })();
      const seen: SseFrame[] = [];
      let disconnects = 0;
      let ended = false;
      while (!ended) {
        const controller = new AbortController();
        const lastId = seen.length ? Number(seen.at(-1)?.id) : null;
        const res = await GET(...request(runId, lastId, controller.signal));
        expect(res.status).toBe(200);
        const budget = 1 + Math.floor(Math.random() * 8);
        ended = await readFrames(res, budget, (f) => seen.push(f));
        if (!ended) {
          controller.abort();
          disconnects++;
        }
      }
      await writer;
      const stored = await readEvents(runId, 0, 1_000);
      expect(stored.length).toBeGreaterThanOrEqual(500);
      expect(disconnects).toBeGreaterThanOrEqual(50);
      expect(seen.map((f) => Number(f.id))).toEqual(stored.map((e) => e.seq));
      expect(seen.map((f) => JSON.parse(f.data))).toEqual(stored);
    },
  );

  it("S2: streaming headers, and heartbeats keep an idle stream open", async () => {
    const runId = await createTestRun(user.id);
    const controller = new AbortController();
    const res = await GET(...request(runId, null, controller.signal));
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(res.headers.get("connection")).toBe("keep-alive");
    const parser = new SseParser();
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const until = Date.now() + 700;
    while (Date.now() < until && parser.comments < 3) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    expect(parser.comments).toBeGreaterThanOrEqual(3);
    controller.abort();
  });

  it("answers 404 for another user's run and for an unknown id", async () => {
    const other = await createTestUser();
    const runId = await createTestRun(other.id);
    expect((await GET(...request(runId, null))).status).toBe(404);
    expect((await GET(...request("nope", null))).status).toBe(404);
    expect((await GET(...request(runId, null, undefined, { authorization: "Bearer weft_not-a-token" }))).status).toBe(
      404,
    );
  });

  it("S3: 1,000 streams opened and aborted leave no subscription or timer behind", { timeout: 180_000 }, async () => {
    const runs = await Promise.all(Array.from({ length: 10 }, () => createTestRun(user.id)));
    const base = { sse: sseStats(), hub: runEventHub().stats(), rechecks: revocationListenerCount() };
    const controllers = Array.from({ length: 1_000 }, () => new AbortController());
    const responses = await Promise.all(
      controllers.map((c, i) => GET(...request(runs[i % runs.length]!, null, c.signal))),
    );
    expect(responses.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    const readers = responses.map((r) => r.body!.getReader());
    await waitFor(
      () => runEventHub().stats().listeners === base.hub.listeners + 1_000,
      90_000,
      () => JSON.stringify({ base, now: runEventHub().stats(), sse: sseStats() }),
    );
    expect(sseStats().open).toBe(base.sse.open + 1_000);
    // each stream: a heartbeat and its credential re-check, and a revocation listener
    expect(sseStats().timers).toBe(base.sse.timers + 2_000);
    expect(revocationListenerCount()).toBe(base.rechecks + 1_000);
    for (const c of controllers) c.abort();
    await waitFor(
      () => sseStats().open === base.sse.open && runEventHub().stats().channels === base.hub.channels,
      90_000,
      () => JSON.stringify({ after: "abort", base, now: runEventHub().stats(), sse: sseStats() }),
    );
    expect(sseStats()).toEqual(base.sse);
    expect(runEventHub().stats().listeners).toBe(base.hub.listeners);
    expect(revocationListenerCount()).toBe(base.rechecks);
    const probe = createWorkerConnection("probe");
    let channels: string[] = [];
    await waitFor(
      // the process's one revocation channel stays; every run's channel is gone
      async () =>
        (channels = ((await probe.pubsub("CHANNELS", `${prefix}:*`)) as string[]).filter(
          (c) => !c.endsWith(":revocations"),
        )).length === 0,
      90_000,
      () => `redis channels ${channels.join(",")}`,
    );
    probe.disconnect();
    await Promise.all(readers.map((r) => r.cancel().catch(() => undefined)));
  });
});

/** Reads frames until `budget` event frames were seen (false) or the `end` event (true). */
async function readFrames(res: Response, budget: number, onEvent: (f: SseFrame) => void): Promise<boolean> {
  const reader = res.body!.getReader();
  const parser = new SseParser();
  const decoder = new TextDecoder();
  let count = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return false;
    for (const f of parser.push(decoder.decode(value, { stream: true }))) {
      if (f.event === "end") return true;
      if (f.id === undefined) continue;
      onEvent(f);
      if (++count >= budget) {
        reader.releaseLock();
        return false;
      }
    }
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 90_000, describe?: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`condition not met in time ${describe?.() ?? ""}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("credentials of open streams (finding 9)", () => {
  /** Keeps a run busy: one progress event every 20 ms until `stop`. */
  function busy(runId: string) {
    let stopped = false;
    const done = (async () => {
      for (let i = 0; !stopped; i++) {
        await append(runId, [progress(i)]);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    return async () => {
      stopped = true;
      await done;
    };
  }

  /** Reads the stream until it ends by itself; returns when it ended (ms since `from`) and how many event frames came. */
  async function untilClosed(
    res: Response,
    from: number,
    ms: number,
  ): Promise<{ closedAfterMs: number; frames: number }> {
    const reader = res.body!.getReader();
    let frames = 0;
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now())),
      ]);
      if (chunk === null) break;
      if (chunk.done) return { closedAfterMs: Date.now() - from, frames };
      frames += (new TextDecoder().decode(chunk.value).match(/^id: /gm) ?? []).length;
    }
    await reader.cancel();
    throw new Error(`the stream was still open ${ms} ms after the revocation (${frames} frames)`);
  }

  it("finding 9: an open stream closes at once when its API token is revoked", async () => {
    const owner = await createTestUser();
    const runId = await createTestRun(owner.id);
    const stop = busy(runId);
    try {
      const res = await GET(...request(runId, null, undefined, owner.auth));
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      const token = await db().apiToken.findFirstOrThrow({ where: { workspaceId: owner.id } });
      const revokedAt = Date.now();
      expect(await revokeApiToken(owner.id, owner.id, token.id)).toBe(true);
      const { closedAfterMs } = await untilClosed(res, revokedAt, 4_000);
      expect(closedAfterMs).toBeLessThan(1_500);
    } finally {
      await stop();
    }
  });

  it("finding 9: a revocation nobody published is found by the periodic re-check", async () => {
    const owner = await createTestUser();
    const runId = await createTestRun(owner.id);
    const stop = busy(runId);
    try {
      const res = await GET(...request(runId, null, undefined, owner.auth));
      expect(res.status).toBe(200);
      const revokedAt = Date.now();
      await db().apiToken.updateMany({ where: { workspaceId: owner.id }, data: { revokedAt: new Date() } });
      const { closedAfterMs } = await untilClosed(res, revokedAt, 9_000);
      expect(closedAfterMs).toBeLessThan(6_500);
    } finally {
      await stop();
    }
  }, 20_000);
});
