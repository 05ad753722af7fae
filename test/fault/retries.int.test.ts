import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { approveToolVersion, saveMcpServer } from "@/lib/db/tools";
import { startRun } from "@/lib/runs/service";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { createTestWorkflow } from "@/test/fixtures";
import { alive, expectContiguousSeq, stepsNow, waitFor, waitTerminal, workerOf } from "@/test/helpers/worker";
import { useWorkerPool } from "@/test/helpers/worker-pool";

/**
 * Error-policy retries are durable: a worker killed between two tries of a step does not make the
 * run try it more often than its policy says. The step calls a side-effecting MCP tool (a process
 * that records every call in a sink file, then fails), with 3 attempts in all. Two ways the wait
 * between tries can be cut:
 * - a near retry (4 s, under the driver's 5 s hold): the job waits for it, and its worker is
 *   SIGKILLed meanwhile; BullMQ's stall check hands the run to the other worker (≈ 15 s), whose
 *   claim finds the retry due and starts the next try, not the failed one again;
 * - a far retry (7 s): the run sleeps (released, a delayed job), every worker is SIGKILLed and new
 *   ones started; the delayed job starts the next try when it is due.
 */
let sinkDir = "";
const pool = useWorkerPool({
  fixtures: [{ rules: [] }],
  size: 2,
  setup: async (p) => {
    sinkDir = mkdtempSync(path.join(tmpdir(), "weft-retries-"));
    const fixture = path.resolve(import.meta.dirname, "fixtures/failing-sink-mcp.mjs");
    const v = await saveMcpServer(p.workspaceId, "flaky", {
      transport: "stdio",
      command: process.execPath,
      args: [fixture, path.join(sinkDir, "calls.log")],
    });
    await approveToolVersion(p.workspaceId, v.id, v.codeHash!);
  },
});
afterAll(() => {
  if (sinkDir) rmSync(sinkDir, { recursive: true, force: true });
});

const calls = (token: string) =>
  (existsSync(path.join(sinkDir, "calls.log"))
    ? readFileSync(path.join(sinkDir, "calls.log"), "utf8").split("\n")
    : []
  ).filter((l) => l === token).length;

/** start → send (3 attempts in all on tool errors, `delayMs` apart) → end. */
const retried = (delayMs: number): WorkflowInput => ({
  name: `Retries ${delayMs}`,
  inputs: [{ key: "token", type: "string" }],
  nodes: [
    { id: "start", type: "start" },
    {
      id: "send",
      type: "tool",
      tool: { name: "flaky__send" },
      args: { key: "{{inputs.token}}" },
      sideEffect: true,
      onError: {
        retry: { maxAttempts: 3, initialDelayMs: delayMs, backoffFactor: 1, on: ["tool_error"] },
        onExhausted: "fail",
      },
    },
    { id: "end", type: "end" },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "send" },
    { id: "e2", source: "send", sourceHandle: "done", target: "end" },
  ],
});

/** The run's tries as its events tell them: [attempt, retry] per step_started of `send`. */
async function tries(runId: string): Promise<[number, number][]> {
  const events = await db().runEvent.findMany({ where: { runId, type: "step_started" }, orderBy: { seq: "asc" } });
  return events
    .map((e) => e.payload as { nodeId: string; attempt: number; retry?: number })
    .filter((p) => p.nodeId === "send")
    .map((p) => [p.attempt, p.retry ?? 0]);
}

async function expectExactlyThreeTries(runId: string, token: string) {
  const { run, steps, events } = await waitTerminal(runId, 120_000);
  expect(run.status).toBe("failed");
  expect(run.reason).toContain('tool "flaky__send" failed');
  expect(calls(token)).toBe(3);
  expect(await tries(runId)).toEqual([
    [1, 0],
    [2, 1],
    [3, 2],
  ]);
  expect(steps.find((s) => s.nodeId === "send")).toMatchObject({ status: "failed", attempt: 3 });
  expect(events.filter((e) => e.type === "step_retrying")).toHaveLength(2);
  expectContiguousSeq(events);
}

describe("error-policy retries survive a killed worker", () => {
  it(
    "a worker killed while it waits for a near retry: the run makes exactly the configured 3 tries",
    { timeout: 300_000 },
    async () => {
      const { workflowId } = await createTestWorkflow(pool.workspaceId, retried(4_000));
      const token = "near";
      const runId = (await startRun(pool.workspaceId, workflowId, { inputs: { token } })).run.id;
      await waitFor(
        async () =>
          (await stepsNow(runId)).some((s) => s.nodeId === "send" && s.status === "retrying") && calls(token) === 1,
        60_000,
        "the first try failed",
      );
      const holder = (await db().run.findUniqueOrThrow({ where: { id: runId } })).leaseOwner;
      const victim = workerOf(pool.live(), holder);
      expect(victim, "a worker holds the run through the short wait").toBeDefined();
      victim!.child.kill("SIGKILL");
      pool.start();
      await expectExactlyThreeTries(runId, token);
      // the taker started the due retry; nothing was re-dispatched (no try was in flight when the worker died)
      const resumed = (await db().runEvent.findMany({ where: { runId, type: "run_started" } })).map(
        (e) => e.payload as { resumed: boolean; redispatched: unknown[] },
      );
      expect(resumed.filter((r) => r.resumed).every((r) => r.redispatched.length === 0)).toBe(true);
    },
  );

  it(
    "every worker killed while the run sleeps through a far retry: new workers make exactly the configured 3 tries",
    { timeout: 300_000 },
    async () => {
      const { workflowId } = await createTestWorkflow(pool.workspaceId, retried(7_000));
      const token = "far";
      const runId = (await startRun(pool.workspaceId, workflowId, { inputs: { token } })).run.id;
      const asleep = await waitFor(
        async () => {
          const r = await db().run.findUniqueOrThrow({ where: { id: runId } });
          return r.status === "running" && r.leaseOwner === null && calls(token) === 1 ? r : null;
        },
        60_000,
        "the run sleeps after its first try",
      );
      expect(asleep.status).toBe("running");
      for (const w of pool.workers.filter(alive)) w.child.kill("SIGKILL");
      await Promise.all([pool.start().ready, pool.start().ready]);
      await expectExactlyThreeTries(runId, token);
    },
  );
});
