import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { RunEvent } from "@/lib/engine/events";
import { closeApiRedis } from "@/lib/queue";
import { createTestRun, createTestUser } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { appendEvents, readEvents } from "./event-log";
import { appendTestEvents, progressEvent as progress } from "./testing/append";

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
    await Promise.all(
      sizes.map((n, i) =>
        append(
          runId,
          Array.from({ length: n }, (_, k) => progress(i * 10 + k)),
        ),
      ),
    );
    const total = sizes.reduce((a, b) => a + b, 0);
    const events = await readEvents(runId, 0, 1_000);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.nextSeq).toBe(total + 1);
  });

  it("refuses events for a run that does not exist, and writes none", async () => {
    const missing = "no-such-run";
    await expect(db().$transaction((tx) => appendEvents(tx, missing, [progress(1)]))).rejects.toThrow(/does not exist/);
    expect(await db().runEvent.count({ where: { runId: missing } })).toBe(0);
  });
});

// RunEvent has no foreign key (migration 20261201160000_run_event_log_without_fk): a trigger on
// "Run" deletes a run's events with it, however the run is deleted.
describe("deleting runs", () => {
  it("deletes their events: the run itself, through its workflow, or through its owner", async () => {
    const other = await createTestUser();
    const [direct, viaWorkflow, viaOwner, kept] = await Promise.all([
      createTestRun(user.id),
      createTestRun(user.id),
      createTestRun(other.id),
      createTestRun(user.id),
    ]);
    for (const runId of [direct, viaWorkflow, viaOwner, kept]) await append(runId, [progress(1), progress(2)]);
    const workflowOf = async (runId: string) =>
      (await db().run.findUniqueOrThrow({ where: { id: runId }, include: { workflowVersion: true } })).workflowVersion
        .workflowId;

    await db().run.delete({ where: { id: direct } });
    await db().workflow.delete({ where: { id: await workflowOf(viaWorkflow) } });
    await db().user.delete({ where: { id: other.id } });

    for (const runId of [direct, viaWorkflow, viaOwner]) {
      expect(await db().run.findUnique({ where: { id: runId } })).toBeNull();
      expect(await db().runEvent.count({ where: { runId } })).toBe(0);
    }
    expect((await readEvents(kept, 0)).map((e) => e.seq)).toEqual([1, 2]);
  });
});
