import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { closeRunEventHub, publishRunWake } from "@/lib/events";
import { publishRunEvents } from "@/lib/events/publish";
import { closeApiRedis } from "@/lib/queue";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { createTestRun, createTestUser } from "@/test/fixtures";
import { MAX_WAIT_SECONDS, waitForRunEnd, waitSeconds } from "./wait";

/** waitForRunEnd against real PostgreSQL and Redis pub/sub; the "worker" is this test, finishing runs by hand. */
useTestDatabase();
let owner: string;

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  owner = (await createTestUser()).id;
});
afterAll(async () => {
  await closeRunEventHub();
  await closeApiRedis();
});

const finish = (runId: string) =>
  db().run.update({ where: { id: runId }, data: { status: "succeeded", finishedAt: new Date() } });
const runFinished = (seq: number) => ({
  seq,
  at: new Date(),
  event: { type: "run_finished" as const, status: "succeeded" as const, reason: "done", outputs: {} },
});
const stepProgress = (seq: number) => ({
  seq,
  at: new Date(),
  event: { type: "step_progress" as const, nodeId: "a", iteration: 1, message: "working" },
});

describe("waitForRunEnd", () => {
  it("answers at once for an ended run and null for an unknown one", async () => {
    const done = await createTestRun(owner, "succeeded");
    expect(await waitForRunEnd(done, { timeoutMs: 10_000 })).toBe("succeeded");
    expect(await waitForRunEnd("no-such-run", { timeoutMs: 10_000 })).toBeNull();
  });

  it("is woken by the run's wake-up carrying run_finished, well before its 2 s fallback read", async () => {
    const runId = await createTestRun(owner, "running");
    const t0 = Date.now();
    const waiting = waitForRunEnd(runId, { timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 150));
    // a progress wake-up is not the end: the wait goes on
    await publishRunEvents(runId, [stepProgress(1)]);
    await new Promise((r) => setTimeout(r, 100));
    await finish(runId);
    await publishRunEvents(runId, [runFinished(2)]);
    expect(await waiting).toBe("succeeded");
    expect(Date.now() - t0).toBeLessThan(1_500);
  });

  it("a bare hint wake-up also makes it read; without any wake-up the fallback read still finds the end", async () => {
    const hinted = await createTestRun(owner, "running");
    const waitingHint = waitForRunEnd(hinted, { timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 150));
    const t0 = Date.now();
    await finish(hinted);
    await publishRunWake(hinted, 3);
    expect(await waitingHint).toBe("succeeded");
    expect(Date.now() - t0).toBeLessThan(1_000);

    const silent = await createTestRun(owner, "running");
    const waitingSilent = waitForRunEnd(silent, { timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 150));
    await finish(silent);
    expect(await waitingSilent).toBe("succeeded");
  });

  it("stops when the run parks to wait for a person (a review may take days), woken by run_waiting", async () => {
    const runId = await createTestRun(owner, "running");
    const waiting = waitForRunEnd(runId, { timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 150));
    const t0 = Date.now();
    await db().step.create({
      data: {
        runId,
        nodeId: "review",
        status: "waiting",
        output: { request: { prompt: "OK?", choices: [{ id: "yes", label: "Yes" }], fields: [] } },
      },
    });
    await db().run.update({ where: { id: runId }, data: { status: "waiting", waitingSince: new Date() } });
    await publishRunEvents(runId, [
      { seq: 1, at: new Date(), event: { type: "run_waiting" as const, steps: [{ nodeId: "review", iteration: 1 }] } },
    ]);
    expect(await waiting).toBe("waiting");
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it("goes on waiting through a park for subflows only (their runs, not a person, are awaited) until the run ends", async () => {
    const runId = await createTestRun(owner, "running");
    const waiting = waitForRunEnd(runId, { timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 150));
    await db().step.create({
      data: {
        runId,
        nodeId: "sub",
        status: "waiting",
        output: { request: { kind: "subflow", runId: "child", workflowId: "w", workflowName: "Child" } },
      },
    });
    await db().run.update({ where: { id: runId }, data: { status: "waiting", waitingSince: new Date() } });
    await publishRunEvents(runId, [
      { seq: 1, at: new Date(), event: { type: "run_waiting" as const, steps: [{ nodeId: "sub", iteration: 1 }] } },
    ]);
    await new Promise((r) => setTimeout(r, 400));
    const t0 = Date.now();
    await db().run.update({ where: { id: runId }, data: { status: "succeeded" } });
    await publishRunEvents(runId, [
      { seq: 2, at: new Date(), event: { type: "run_finished" as const, status: "succeeded", reason: "done" } },
    ]);
    expect(await waiting).toBe("succeeded");
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it("gives up after its timeout or when aborted, answering the status it last read", async () => {
    const runId = await createTestRun(owner, "running");
    const t0 = Date.now();
    expect(await waitForRunEnd(runId, { timeoutMs: 300 })).toBe("running");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(Date.now() - t0).toBeLessThan(2_000);
    const abort = new AbortController();
    const waiting = waitForRunEnd(runId, { timeoutMs: 20_000, signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    expect(await waiting).toBe("running");
  });
});

describe("waitSeconds", () => {
  it("reads ?wait= as whole seconds, capped, 0 when absent; anything else is malformed", () => {
    expect(waitSeconds("http://x/a")).toBe(0);
    expect(waitSeconds("http://x/a?wait=")).toBe(0);
    expect(waitSeconds("http://x/a?wait=15")).toBe(15);
    expect(waitSeconds("http://x/a?wait=9999")).toBe(MAX_WAIT_SECONDS);
    for (const bad of ["-1", "1.5", "abc", "12345"]) expect(waitSeconds(`http://x/a?wait=${bad}`)).toBeNull();
  });
});
