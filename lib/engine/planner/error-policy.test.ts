import { describe, expect, it } from "vitest";
import type { ErrorPolicy } from "@/lib/workflow/error-policy";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { countSteps, simulate, type SimOutcome } from "../testing/simulate";
import { plan } from ".";

/** start → a → b → end, with `policy` on a (and `extra` on the document). */
const chain = (policy: Partial<ErrorPolicy> | undefined, extra: Partial<WorkflowInput> = {}) =>
  buildWorkflow({
    nodes: [startNode(), agentNode("a", ["done"], policy ? { onError: policy } : {}), agentNode("b"), endNode()],
    edges: [fwd("start", "next", "a"), fwd("a", "done", "b"), fwd("b", "done", "end")],
    ...extra,
  });

const retry3 = {
  maxAttempts: 3,
  initialDelayMs: 100,
  backoffFactor: 2,
  on: ["provider_5xx" as const, "timeout" as const],
};
const failA =
  (times: number, errorClass: "provider_5xx" | "rate_limit" | "invalid_output" = "provider_5xx") =>
  (s: { nodeId: string }, n: number): SimOutcome =>
    s.nodeId === "a" && n <= times ? { fail: `boom ${n}`, errorClass } : {};

describe("error policy: retries (planner)", () => {
  it("retries a failing class with exponential backoff and succeeds on the third try", () => {
    const r = simulate(chain({ retry: retry3 }), failA(2));
    expect(r.finish).toMatchObject({ status: "succeeded" });
    const tries = r.steps.filter((s) => s.nodeId === "a");
    expect(tries.map((s) => [s.attempt, s.retry, s.at])).toEqual([
      [1, 0, 0],
      [2, 1, 100],
      [3, 2, 300],
    ]);
    const retrying = r.events.filter((e) => e.type === "step_retrying");
    expect(retrying).toMatchObject([
      {
        nodeId: "a",
        attempt: 1,
        error: "boom 1",
        errorClass: "provider_5xx",
        retry: 1,
        maxRetries: 2,
        delayMs: 100,
        retryAt: new Date(100).toISOString(),
      },
      {
        nodeId: "a",
        attempt: 2,
        error: "boom 2",
        retry: 2,
        maxRetries: 2,
        delayMs: 200,
        retryAt: new Date(300).toISOString(),
      },
    ]);
    expect(
      r.events
        .filter((e) => e.type === "step_started" && e.nodeId === "a")
        .map((e) => (e.type === "step_started" ? e.retry : null)),
    ).toEqual([undefined, 1, 2]);
    // every try is a step started (R6)
    expect(r.state.stepsStarted).toBe(6);
  });

  it("fails the run with the last error when the tries are used up", () => {
    const r = simulate(chain({ retry: retry3 }), failA(9));
    expect(countSteps(r.steps)).toMatchObject({ a: 3 });
    expect(r.finish).toMatchObject({ status: "failed", reason: 'Step "a" (iteration 1) failed: boom 3' });
    expect(r.events.find((e) => e.type === "step_finished" && e.nodeId === "a")).toMatchObject({
      status: "failed",
      errorClass: "provider_5xx",
    });
  });

  it("does not retry a class the policy leaves out (it goes straight to onExhausted)", () => {
    const r = simulate(chain({ retry: retry3 }), failA(1, "rate_limit"));
    expect(countSteps(r.steps)).toMatchObject({ a: 1 });
    expect(r.finish).toMatchObject({ status: "failed" });
  });

  it("retries a timed-out try (class timeout) and an unknown branch (class invalid_output) when listed", () => {
    const timeouts = simulate(chain({ retry: retry3 }), (s, n): SimOutcome =>
      s.nodeId === "a" && n === 1 ? { timeout: 50 } : {},
    );
    expect(timeouts.finish).toMatchObject({ status: "succeeded" });
    expect(timeouts.events.find((e) => e.type === "step_retrying")).toMatchObject({
      errorClass: "timeout",
      error: "timed out after 50 ms",
    });
    const invalid = { ...retry3, on: ["invalid_output" as const] };
    const branches = simulate(chain({ retry: invalid }), (s, n): SimOutcome =>
      s.nodeId === "a" && n === 1 ? { branch: "nope" } : {},
    );
    expect(branches.finish).toMatchObject({ status: "succeeded" });
    expect(branches.events.find((e) => e.type === "step_retrying")).toMatchObject({ errorClass: "invalid_output" });
  });

  it("caps the wait at maxDelayMs", () => {
    const r = simulate(
      chain({ retry: { ...retry3, maxAttempts: 4, initialDelayMs: 1_000, backoffFactor: 10, maxDelayMs: 5_000 } }),
      failA(3),
    );
    expect(
      r.events.filter((e) => e.type === "step_retrying").map((e) => (e.type === "step_retrying" ? e.delayMs : 0)),
    ).toEqual([1_000, 5_000, 5_000]);
  });

  it("counts every try toward maxSteps: the run ends budget_exhausted instead of retrying past it", () => {
    const r = simulate(
      chain(
        { retry: { ...retry3, maxAttempts: 10 } },
        { limits: { maxSteps: 4, maxIterationsPerLoop: 3, runTimeoutMs: 60_000, maxTurnsPerVisit: 8 } },
      ),
      failA(9),
    );
    expect(r.finish).toMatchObject({ status: "budget_exhausted", limit: "maxSteps" });
    expect(countSteps(r.steps)).toMatchObject({ start: 1, a: 3 });
  });

  it("a waiting retry keeps the step busy: resume re-dispatches nothing, retry_due starts the next try (no extra attempt)", () => {
    const wf = chain({ retry: retry3 });
    let s = plan(wf, null, { type: "run_started", inputs: {} }).state;
    s = plan(wf, s, { type: "step_succeeded", nodeId: "start", iteration: 1, attempt: 1, output: {} }).state;
    s = plan(
      wf,
      s,
      { type: "step_failed", nodeId: "a", iteration: 1, attempt: 1, error: "503", errorClass: "provider_5xx" },
      { now: 1_000 },
    ).state;
    expect(s.nodes.a).toMatchObject({ phase: "retrying", retry: 1, retryAt: 1_100, attempt: 1 });
    const resumed = plan(wf, s, { type: "resume" });
    expect(resumed.commands.filter((c) => c.type === "start_step")).toEqual([]);
    expect(resumed.events[0]).toMatchObject({ type: "run_started", resumed: true, redispatched: [] });
    const due = plan(wf, resumed.state, { type: "retry_due", nodeId: "a", iteration: 1, retry: 1 });
    expect(due.commands).toEqual([
      {
        type: "start_step",
        nodeId: "a",
        kind: "agent",
        iteration: 1,
        attempt: 2,
        input: { via: ["start-next-a"] },
        retry: 1,
      },
    ]);
    // a crash during the retry's try re-dispatches that try (same retry number: its effects keep their keys)
    expect(plan(wf, due.state, { type: "resume" }).commands[0]).toMatchObject({
      attempt: 3,
      retry: 1,
      redispatch: true,
    });
    // a repeated or stale retry_due changes nothing
    expect(plan(wf, due.state, { type: "retry_due", nodeId: "a", iteration: 1, retry: 1 }).ignored).toBe(true);
  });

  it("a cancel while a step waits for its retry ends the run and the step cancelled", () => {
    const wf = chain({ retry: retry3 });
    let s = plan(wf, null, { type: "run_started", inputs: {} }).state;
    s = plan(wf, s, { type: "step_succeeded", nodeId: "start", iteration: 1, attempt: 1, output: {} }).state;
    s = plan(wf, s, {
      type: "step_failed",
      nodeId: "a",
      iteration: 1,
      attempt: 1,
      error: "503",
      errorClass: "provider_5xx",
    }).state;
    const r = plan(wf, s, { type: "cancel_requested" });
    expect(r.events).toContainEqual(
      expect.objectContaining({ type: "step_finished", nodeId: "a", status: "cancelled" }),
    );
    expect(r.commands).toContainEqual({
      type: "cancel_steps",
      steps: [{ nodeId: "a", iteration: 1, attempt: 1, reason: "Cancelled by request" }],
    });
    expect(r.state.status).toBe("cancelled");
  });
});

describe("error policy: when the tries are used up (planner)", () => {
  it("fallback: the step succeeds with the fallback output and the run goes on with it", () => {
    const r = simulate(
      chain({ retry: { ...retry3, maxAttempts: 2 }, onExhausted: "fallback", fallback: { summary: "n/a" } }),
      failA(9),
    );
    expect(r.finish).toMatchObject({ status: "succeeded" });
    expect(countSteps(r.steps)).toEqual({ start: 1, a: 2, b: 1, end: 1 });
    expect(r.events.find((e) => e.type === "step_finished" && e.nodeId === "a")).toMatchObject({
      status: "succeeded",
      output: { summary: "n/a" },
      branch: "done",
      error: "boom 2",
      errorClass: "provider_5xx",
      recovered: "fallback",
    });
    expect(r.state.nodes.a?.output).toEqual({ summary: "n/a" });
  });

  it("fallback on a node with several outcomes follows its fallbackBranch", () => {
    const wf = buildWorkflow({
      nodes: [
        startNode(),
        agentNode("judge", ["good", "bad"], {
          onError: { onExhausted: "fallback", fallback: "unsure", fallbackBranch: "bad" },
        }),
        agentNode("fix"),
        agentNode("ship"),
        endNode(),
      ],
      edges: [
        fwd("start", "next", "judge"),
        fwd("judge", "good", "ship"),
        fwd("judge", "bad", "fix"),
        fwd("fix", "done", "end"),
        fwd("ship", "done", "end"),
      ],
    });
    const r = simulate(wf, (s): SimOutcome => (s.nodeId === "judge" ? { fail: "400 bad request" } : {}));
    expect(r.finish).toMatchObject({ status: "succeeded" });
    expect(countSteps(r.steps)).toEqual({ start: 1, judge: 1, fix: 1, end: 1 });
    expect(r.skipped).toEqual(["ship"]);
    expect(r.events.find((e) => e.type === "branch_taken")).toMatchObject({
      nodeId: "judge",
      branch: "bad",
      targets: ["fix"],
    });
  });

  it("error branch: the error travels along the node's error outcome; its other outcomes are dead paths", () => {
    const wf = buildWorkflow({
      nodes: [
        startNode(),
        agentNode("a", ["done"], { onError: { retry: { ...retry3, maxAttempts: 2 }, onExhausted: "error_branch" } }),
        agentNode("b"),
        agentNode("apologise"),
        endNode("end", {}),
      ],
      edges: [
        fwd("start", "next", "a"),
        fwd("a", "done", "b"),
        fwd("a", "error", "apologise"),
        fwd("b", "done", "end"),
        fwd("apologise", "done", "end"),
      ],
    });
    const r = simulate(wf, failA(9));
    expect(r.finish).toMatchObject({ status: "succeeded" });
    expect(countSteps(r.steps)).toEqual({ start: 1, a: 2, apologise: 1, end: 1 });
    expect(r.skipped).toEqual(["b"]);
    const finished = r.events.find((e) => e.type === "step_finished" && e.nodeId === "a");
    expect(finished).toMatchObject({
      status: "failed",
      branch: "error",
      recovered: "error_branch",
      output: { error: "boom 2", errorClass: "provider_5xx", attempts: 2 },
    });
    expect(r.state.nodes.a).toMatchObject({ phase: "done", branch: "error", output: { error: "boom 2", attempts: 2 } });
  });

  it("a tool node without a policy takes its wired error outcome at once (what tool nodes always did), else fails the run", () => {
    const wf = (wired: boolean) =>
      buildWorkflow({
        nodes: [
          startNode(),
          { id: "t", type: "tool", tool: { name: "fetch" } },
          agentNode("ok"),
          agentNode("handle"),
          endNode(),
        ],
        edges: [
          fwd("start", "next", "t"),
          fwd("t", "done", "ok"),
          ...(wired ? [fwd("t", "error", "handle")] : []),
          fwd("ok", "done", "end"),
          fwd("handle", "done", "end"),
        ],
      });
    const failTool = (s: { nodeId: string }): SimOutcome =>
      s.nodeId === "t" ? { fail: 'tool "fetch" failed: 503', errorClass: "tool_error" } : {};
    const wired = simulate(wf(true), failTool);
    expect(wired.finish).toMatchObject({ status: "succeeded" });
    expect(countSteps(wired.steps)).toEqual({ start: 1, t: 1, handle: 1, end: 1 });
    expect(simulate(wf(false), failTool).finish).toMatchObject({ status: "failed" });
  });

  it("a budget hit inside the step ends the run budget_exhausted whatever the policy", () => {
    const r = simulate(
      chain({ retry: { ...retry3, on: ["other"] }, onExhausted: "fallback", fallback: 1 }),
      (s): SimOutcome => (s.nodeId === "a" ? { fail: "turns", limit: "maxTurnsPerVisit" } : {}),
    );
    expect(r.finish).toMatchObject({ status: "budget_exhausted", limit: "maxTurnsPerVisit" });
    expect(countSteps(r.steps)).toMatchObject({ a: 1 });
  });
});
