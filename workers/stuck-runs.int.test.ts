import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { closeApiRedis, closeRunsQueue, enqueueRun, hasLiveRunJob, runsQueue } from "@/lib/queue";
import { RUN_DISPATCH_MAX_FAILURES } from "@/workers/dispatch-failures";
import { cancelRun, startRun } from "@/lib/runs/service";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { spawnWorker, stepsNow, stopWorker, waitFor, waitTerminal, type WorkerProcess } from "@/test/helpers/worker";

/**
 * Regressions (issue: a run that never ends and cannot be cancelled). A run stored with inputs
 * nested 10,000 levels deep (as the API accepted before run inputs were limited) makes every job of
 * it throw before its first commit. It used to be re-dispatched forever (BullMQ's retries, then the
 * reconciler every interval), and Cancel only recorded the request while the job's stale lease
 * stayed on the queued run.
 */
const database = useTestDatabase();
const prefix = testQueuePrefix();
let workspaceId = "";
let worker: WorkerProcess;

const deepInputs = (levels: number): string => `{"doc":${'{"a":'.repeat(levels)}1${"}".repeat(levels)}}`;

/** A queued run with `inputs` (JSON text) inserted as an older version of the service would have, and its job. */
async function storedRun(inputs: string): Promise<string> {
  const { versionId } = await createTestWorkflow(workspaceId, {
    inputs: [{ key: "doc", type: "json" }],
    nodes: [
      { id: "start", type: "start" },
      { id: "end", type: "end", outputs: { doc: "{{inputs.doc}}" } },
    ],
    edges: [{ id: "e", source: "start", sourceHandle: "next", target: "end" }],
  });
  const rows = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO "Run" (id, "workspaceId", "workflowVersionId", status, inputs, "createdAt")
    VALUES (gen_random_uuid()::text, ${workspaceId}, ${versionId}, 'queued', ${inputs}::jsonb, now() - interval '1 minute') RETURNING id`;
  const id = rows[0]!.id;
  await enqueueRun(id, "start");
  return id;
}

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = prefix;
  workspaceId = (await createTestUser()).id;
  worker = spawnWorker({ databaseUrl: database.current.url, prefix });
  await worker.ready;
}, 120_000);

afterAll(async () => {
  if (worker) await stopWorker(worker);
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeRunsQueue();
  await closeApiRedis();
});

describe("a run sleeping until an error-policy retry", () => {
  it(
    "is cancelled at once: the cancel wakes its delayed job instead of waiting for the retry",
    { timeout: 120_000 },
    async () => {
      const { workflowId } = await createTestWorkflow(workspaceId, {
        nodes: [
          { id: "start", type: "start" },
          // a tool that does not exist fails every try (class other): retried in 10 minutes
          {
            id: "t",
            type: "tool",
            tool: { name: "no_such_tool" },
            onError: {
              retry: { maxAttempts: 3, initialDelayMs: 600_000, backoffFactor: 1, on: ["other"] },
              onExhausted: "fail",
            },
          },
          { id: "end", type: "end" },
        ],
        edges: [
          { id: "e1", source: "start", sourceHandle: "next", target: "t" },
          { id: "e2", source: "t", sourceHandle: "done", target: "end" },
        ],
      });
      const { run } = await startRun(workspaceId, workflowId, {});
      await waitFor(
        async () => {
          const r = await db().run.findUniqueOrThrow({
            where: { id: run.id },
            select: { status: true, leaseOwner: true },
          });
          const waiting = (await stepsNow(run.id)).some((s) => s.nodeId === "t" && s.status === "retrying");
          return r.status === "running" && r.leaseOwner === null && waiting;
        },
        60_000,
        "the run sleeps until its retry",
      );
      expect(await hasLiveRunJob(run.id)).toBe(true);
      const asked = Date.now();
      await cancelRun(workspaceId, run.id, "No more waiting");
      const { run: ended, steps } = await waitTerminal(run.id, 30_000);
      expect(ended.status).toBe("cancelled");
      expect(Date.now() - asked).toBeLessThan(20_000);
      expect(steps.find((s) => s.nodeId === "t")).toMatchObject({ status: "cancelled", attempt: 1 });
    },
  );
});

describe("a run whose job throws before its first commit", () => {
  it(
    `ends failed with the error after ${RUN_DISPATCH_MAX_FAILURES} failed jobs instead of being re-dispatched forever`,
    { timeout: 120_000 },
    async () => {
      const runId = await storedRun(deepInputs(10_000));
      const { run, events } = await waitTerminal(runId, 90_000);
      expect(run.status).toBe("failed");
      expect(run.reason).toMatch(/^The run could not start: Maximum call stack size exceeded/);
      expect(run.reason).toContain(`failed ${RUN_DISPATCH_MAX_FAILURES} times`);
      const row = await db().run.findUniqueOrThrow({
        where: { id: runId },
        select: { dispatchFailures: true, leaseOwner: true },
      });
      expect(row).toEqual({ dispatchFailures: RUN_DISPATCH_MAX_FAILURES, leaseOwner: null });
      expect(events.map((e) => e.type)).toEqual(["run_finished"]);
      // nothing dispatches it again: it stays failed with the same count
      await new Promise((r) => setTimeout(r, 3_000));
      expect(
        await db().run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, dispatchFailures: true } }),
      ).toEqual({ status: "failed", dispatchFailures: RUN_DISPATCH_MAX_FAILURES });
    },
  );

  it("is cancelled at once although a job that threw left its lease on it", { timeout: 120_000 }, async () => {
    const runId = await storedRun(deepInputs(10_000));
    const stale = await waitFor(
      async () => {
        const r = await db().run.findUniqueOrThrow({
          where: { id: runId },
          select: { status: true, leaseOwner: true, dispatchFailures: true },
        });
        return r.dispatchFailures >= 1 && r.leaseOwner !== null ? r : null;
      },
      60_000,
      "a job that threw and left its lease",
    );
    expect(stale.status).toBe("queued");
    const cancelled = await cancelRun(workspaceId, runId, "Stop it");
    expect(cancelled).toMatchObject({ status: "cancelled", reason: "Stop it" });
    const events = await db().runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(events.map((e) => e.type)).toEqual(["cancel_requested", "run_finished"]);
    // later jobs of it find it ended
    await new Promise((r) => setTimeout(r, 3_000));
    expect(
      await db().run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, leaseOwner: true } }),
    ).toEqual({ status: "cancelled", leaseOwner: null });
  });
});
