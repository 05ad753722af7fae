import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { RunEvent } from "@/lib/engine/events";
import { closeApiRedis } from "@/lib/queue";
import { createTestRun, createTestUser } from "@/lib/runs/test-fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { publishRunWake } from "./publish";
import { appendEvents, readEvents } from "./store";

useTestDatabase();
const prefix = testQueuePrefix();
let user: Awaited<ReturnType<typeof createTestUser>>;

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = prefix;
  user = await createTestUser();
});

afterAll(async () => {
  await closeApiRedis();
});

const TX = { maxWait: 30_000, timeout: 30_000 };
const progress = (i: number): RunEvent => ({ type: "step_progress", nodeId: "a", iteration: 1, message: `m${i}` });

async function append(runId: string, events: RunEvent[], finish = false): Promise<void> {
  const stored = await db().$transaction(async (tx) => {
    const s = await appendEvents(tx, runId, events);
    if (finish) await tx.run.update({ where: { id: runId }, data: { status: "succeeded", reason: "done" } });
    return s;
  }, TX);
  const last = stored.at(-1);
  if (last) await publishRunWake(runId, last.seq);
}


describe("appendEvents", () => {
  it("allocates contiguous per-run seq under concurrent appends", async () => {
    const runId = await createTestRun(user.id);
    const sizes = Array.from({ length: 40 }, (_, i) => 1 + (i % 4));
    await Promise.all(sizes.map((n, i) => append(runId, Array.from({ length: n }, (_, k) => progress(i * 10 + k)))));
    const total = sizes.reduce((a, b) => a + b, 0);
    const events = await readEvents(runId, 0, 1_000);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.nextSeq).toBe(total + 1);
  });
});
