import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { RunEvent } from "@/lib/engine/events";
import { closeApiRedis } from "@/lib/queue";
import { createTestRun, createTestUser } from "@/lib/runs/test-fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { readEvents } from "./store";
import { appendTestEvents, progressEvent as progress } from "./test-append";

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

const append = (runId: string, events: RunEvent[]) => appendTestEvents(runId, events);


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
