import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { listRunsForOwner } from "@/lib/db/runs";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { forkRun, retryRun } from "@/lib/runs/derive";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { createTestRun, createTestUser } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { compareRuns } from "./compare";
import { runLineage } from "./lineage";

/** Lineage and comparison reads: a failed run, its retry, a fork of the retry (no worker runs them). */
useTestDatabase();
let owner = "";
let other = "";

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  [owner, other] = [(await createTestUser()).id, (await createTestUser()).id];
});
afterAll(async () => {
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeRunsQueue();
  await closeApiRedis();
  await closeRunLimiter();
});

describe("run lineage and comparison", () => {
  it("walks from a fork back to the original, lists what derives from a run, and lines up two runs step by step", async () => {
    const original = await createTestRun(owner, "failed");
    const at = new Date();
    const later = new Date(at.getTime() + 1_000);
    await db().step.createMany({
      data: [
        {
          runId: original,
          nodeId: "start",
          iteration: 1,
          status: "succeeded",
          input: { via: [] },
          output: {},
          branch: "next",
          startedAt: at,
          finishedAt: at,
        },
        {
          runId: original,
          nodeId: "end",
          iteration: 1,
          status: "failed",
          input: { via: ["e1"] },
          error: "boom",
          startedAt: later,
        },
      ],
    });
    const retry = (await retryRun(owner, original)).run.id;
    // the retry "ran": its start reused, its end succeeded
    await db().run.update({ where: { id: retry }, data: { status: "succeeded" } });
    await db().step.createMany({
      data: [
        {
          runId: retry,
          nodeId: "start",
          iteration: 1,
          status: "succeeded",
          input: { via: [] },
          output: {},
          branch: "next",
          startedAt: at,
          finishedAt: at,
        },
        {
          runId: retry,
          nodeId: "end",
          iteration: 1,
          status: "succeeded",
          input: { via: ["e1"] },
          output: { ok: true },
          startedAt: later,
          finishedAt: later,
        },
      ],
    });
    await db().runEvent.create({
      data: {
        runId: retry,
        seq: 1,
        type: "step_started",
        payload: {
          nodeId: "start",
          iteration: 1,
          attempt: 1,
          kind: "start",
          reused: { runId: original, edited: false },
        },
      },
    });
    const fork = (await forkRun(owner, retry, { nodeId: "start", output: {} })).run.id;

    expect(await runLineage(owner, fork)).toMatchObject({
      chain: [
        { id: original, trigger: "manual", forkedAt: null },
        { id: retry, trigger: "retry", status: "succeeded" },
      ],
      forkedAt: { nodeId: "start", iteration: 1 },
      derived: [],
    });
    expect(await runLineage(owner, original)).toMatchObject({ chain: [], derived: [{ id: retry, trigger: "retry" }] });
    expect(await runLineage(other, original)).toBeNull();

    const cmp = await compareRuns(owner, original, retry);
    expect(cmp.rows.map((r) => [r.key, r.verdict, r.right?.reused ?? null])).toEqual([
      ["start#1", "same", true],
      ["end#1", "changed", false],
    ]);
    await expect(compareRuns(other, original, retry)).rejects.toMatchObject({ code: "not_found" });

    const listed = (await listRunsForOwner(owner)).runs;
    expect(listed.find((r) => r.id === original)).toMatchObject({ derivedCount: 1, sourceRunId: null });
    expect(listed.find((r) => r.id === fork)).toMatchObject({
      sourceRunId: retry,
      sourceNodeId: "start",
      sourceIteration: 1,
      trigger: "fork",
    });
  });
});
