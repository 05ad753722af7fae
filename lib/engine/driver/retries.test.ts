import { describe, expect, it } from "vitest";
import type { ErrorPolicy } from "@/lib/workflow/error-policy";
import { buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { fakePorts, FakeTools, ScriptedModel } from "../testing/fakes";
import { runJob } from "./index";

/**
 * Error-policy retries through the driver, with the real tool executor: the run's job waits for a
 * near retry, sleeps through a far one (released, a delayed job), and a worker that takes the run
 * over between two tries starts the next try on schedule, never an extra one.
 */

/** start → t (side-effecting tool "send", failing its first `failures` calls) → end, with `policy` on t. */
function setup(policy: Partial<ErrorPolicy>, failures: number, wired = false) {
  let calls = 0;
  const tools = new FakeTools({
    send: {
      descriptor: { name: "send", description: "Sends", parameters: { type: "object" }, sideEffect: true },
      run: () => {
        calls += 1;
        if (calls <= failures) throw new Error(`503 upstream (call ${calls})`);
        return `sent on call ${calls}`;
      },
    },
  });
  const workflow = buildWorkflow({
    outputs: [{ key: "result" }],
    nodes: [
      startNode(),
      { id: "t", type: "tool", tool: { name: "send" }, args: { to: "ops" }, onError: policy },
      ...(wired
        ? [{ id: "sorry", type: "end" as const, outputs: { result: "failed: {{nodes.t.output.error}}" } }]
        : []),
      endNode("end", { result: "{{nodes.t.output}}" }),
    ],
    edges: [fwd("start", "next", "t"), fwd("t", "done", "end"), ...(wired ? [fwd("t", "error", "sorry")] : [])],
  });
  const ports = fakePorts({ model: new ScriptedModel(() => ({ content: "" })), tools });
  ports.store.create("r1", workflow, {});
  return { ports, tools, store: ports.store, calls: () => calls };
}

const retry = (initialDelayMs: number, maxAttempts = 3) => ({
  maxAttempts,
  initialDelayMs,
  backoffFactor: 2,
  on: ["tool_error" as const],
});
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("driver: error-policy retries", () => {
  it("a near retry keeps the job: the third try succeeds, each try with side-effect keys of its own", async () => {
    const { ports, tools, store } = setup({ retry: retry(20) }, 2);
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(store.run("r1").outputs).toEqual({ result: "sent on call 3" });
    expect(tools.calls.map((c) => c.idempotencyKey)).toEqual(["r1:t:1", "r1:t:1:r1", "r1:t:1:r2"]);
    expect(store.steps("r1").find((s) => s.nodeId === "t")).toMatchObject({
      status: "succeeded",
      attempt: 3,
      error: null,
    });
    const types = store
      .run("r1")
      .events.map((e) => e.event.type)
      .filter((t) => t.startsWith("step_") && t !== "step_progress");
    expect(types.filter((t) => t === "step_retrying")).toHaveLength(2);
    expect(store.run("r1").stepCount).toBe(5);
    expect(ports.later).toEqual([]);
  });

  it("a far retry lets the run sleep (released, a delayed job), and the next job starts it when due", async () => {
    const { ports, store, calls } = setup({ retry: retry(300) }, 1);
    const first = await runJob(ports, "r1", { owner: "w1", retryHoldMs: 50 });
    expect(first).toMatchObject({ kind: "sleeping" });
    expect(ports.later).toHaveLength(1);
    expect(ports.later[0]!.delayMs).toBeGreaterThan(200);
    expect(ports.later[0]!.delayMs).toBeLessThanOrEqual(300);
    expect(store.run("r1")).toMatchObject({ status: "running", leaseOwner: null });
    expect(store.steps("r1").find((s) => s.nodeId === "t")).toMatchObject({
      status: "retrying",
      attempt: 1,
      error: 'tool "send" failed: 503 upstream (call 1)',
    });
    // a job before the retry is due sleeps again, starting nothing
    expect(await runJob(ports, "r1", { owner: "w2", retryHoldMs: 50 })).toMatchObject({ kind: "sleeping" });
    expect(calls()).toBe(1);
    await pause(320);
    expect(await runJob(ports, "r1", { owner: "w3", retryHoldMs: 50 })).toMatchObject({
      kind: "terminal",
      status: "succeeded",
    });
    expect(calls()).toBe(2);
  });

  it("a worker that takes the run over between two tries starts the next try on schedule: exactly the configured tries", async () => {
    const { ports, store, calls } = setup({ retry: retry(150) }, 5);
    const w1 = runJob(ports, "r1", { owner: "w1" });
    // after the first try failed, while w1 waits for the retry, w2 takes the run over (w1's worker is presumed dead)
    for (let i = 0; store.steps("r1").find((s) => s.nodeId === "t")?.status !== "retrying"; i++) {
      if (i > 200) throw new Error("the first try never failed");
      await pause(5);
    }
    await store.claimRun("r1", "w0");
    expect(await w1).toMatchObject({ kind: "lost_lease" });
    expect(calls()).toBe(1);
    expect(await runJob(ports, "r1", { owner: "w2" })).toMatchObject({ kind: "terminal", status: "failed" });
    expect(calls()).toBe(3);
    expect(store.steps("r1").find((s) => s.nodeId === "t")).toMatchObject({ status: "failed", attempt: 3 });
  });

  it("a sleeping run is cancelled by its next job: the waiting step ends cancelled, no try runs", async () => {
    const { ports, store, calls } = setup({ retry: retry(60_000) }, 1);
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "sleeping" });
    await store.requestCancel("r1", "enough");
    expect(await runJob(ports, "r1", { owner: "w2" })).toMatchObject({ kind: "terminal", status: "cancelled" });
    expect(store.steps("r1").find((s) => s.nodeId === "t")).toMatchObject({ status: "cancelled" });
    expect(calls()).toBe(1);
  });

  it("sleeps no longer than the run's deadline", async () => {
    const { ports, store } = setup({ retry: retry(3_600_000) }, 1);
    const doc = store.run("r1").workflow as { limits: { runTimeoutMs: number } };
    doc.limits.runTimeoutMs = 2_000;
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "sleeping" });
    expect(ports.later[0]!.delayMs).toBeLessThanOrEqual(2_000);
  });

  it("error branch and fallback with the real executor: the run goes on with the error, or with the fallback", async () => {
    const wired = setup({ retry: retry(10, 2), onExhausted: "error_branch" }, 9, true);
    expect(await runJob(wired.ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(wired.store.run("r1").outputs).toEqual({ result: 'failed: tool "send" failed: 503 upstream (call 2)' });
    expect(wired.store.steps("r1").find((s) => s.nodeId === "t")).toMatchObject({
      status: "failed",
      branch: "error",
      attempt: 2,
    });
    const fallback = setup({ onExhausted: "fallback", fallback: "queued for later" }, 9);
    expect(await runJob(fallback.ports, "r1", { owner: "w1" })).toMatchObject({
      kind: "terminal",
      status: "succeeded",
    });
    expect(fallback.store.run("r1").outputs).toEqual({ result: "queued for later" });
    expect(fallback.store.steps("r1").find((s) => s.nodeId === "t")).toMatchObject({
      status: "succeeded",
      output: "queued for later",
      error: 'tool "send" failed: 503 upstream (call 1)',
    });
  });
});
