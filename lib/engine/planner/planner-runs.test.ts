import { describe, expect, it } from "vitest";
import { abortNode, agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { articleWriter, majorityVote, mlPipeline, refundTriage } from "../testing/scenarios";
import { countSteps, simulate } from "../testing/simulate";
import { plan } from "./index";

const ok = { output: "x" };
const chain = buildWorkflow({
  nodes: [startNode(), agentNode("a"), agentNode("b"), endNode("end", { r: "{{nodes.b.output}}" })],
  edges: [fwd("start", "next", "a"), fwd("a", "done", "b"), fwd("b", "done", "end")],
});

describe("R7 durability (resume)", () => {
  it("re-dispatches only the step in flight, with attempt + 1, and never a committed one", () => {
    let s = plan(chain, null, { type: "run_started", inputs: {} }).state;
    s = plan(chain, s, { type: "step_succeeded", nodeId: "start", iteration: 1, attempt: 1, output: null }).state;
    const resumed = plan(chain, s, { type: "resume" });
    expect(resumed.commands).toEqual([
      {
        type: "start_step",
        nodeId: "a",
        kind: "agent",
        iteration: 1,
        attempt: 2,
        input: { via: ["start-next-a"] },
        redispatch: true,
      },
    ]);
    expect(resumed.events[0]).toMatchObject({
      type: "run_started",
      resumed: true,
      redispatched: [{ nodeId: "a", iteration: 1, attempt: 2 }],
    });
    const r = simulate(chain, () => ok, { type: "resume" }, s);
    expect(countSteps(r.steps)).toEqual({ a: 1, b: 1, end: 1 });
    expect(r.finish?.status).toBe("succeeded");
  });

  it("a result from a stale attempt is ignored and changes nothing", () => {
    let s = plan(chain, null, { type: "run_started", inputs: {} }).state;
    s = plan(chain, s, { type: "resume" }).state;
    const stale = plan(chain, s, { type: "step_succeeded", nodeId: "start", iteration: 1, attempt: 1, output: null });
    expect(stale).toMatchObject({ ignored: true, commands: [], events: [] });
    expect(stale.state).toEqual(s);
  });

  it("a step that keeps losing its worker fails the run after the attempt cap (D3)", () => {
    let s = plan(chain, null, { type: "run_started", inputs: {} }).state;
    s = plan(chain, s, { type: "resume" }).state;
    s = plan(chain, s, { type: "resume" }).state;
    const r = plan(chain, s, { type: "resume" });
    expect(r.commands.at(-1)).toMatchObject({ type: "finish_run", status: "failed" });
    expect(r.state.reason).toContain('Step "start" (iteration 1) was interrupted 3 times');
  });

  it("planning is pure: the input state is not mutated", () => {
    const s = plan(chain, null, { type: "run_started", inputs: {} }).state;
    const before = structuredClone(s);
    plan(chain, s, { type: "step_succeeded", nodeId: "start", iteration: 1, attempt: 1, output: null });
    expect(s).toEqual(before);
  });
});

describe("R8 events", () => {
  it("starts with run_started, ends with run_finished, and every started step finishes", () => {
    const r = simulate(refundTriage(), (s) => (s.nodeId === "triage" ? { branch: "refund" } : ok));
    expect(r.events[0]?.type).toBe("run_started");
    expect(r.events.at(-1)).toMatchObject({ type: "run_finished", status: "succeeded" });
    const started = r.events.filter((e) => e.type === "step_started").map((e) => `${e.nodeId}#${e.iteration}`);
    const finished = r.events.flatMap((e) =>
      e.type === "step_finished" && e.status !== "skipped" ? [`${e.nodeId}#${e.iteration}`] : [],
    );
    expect(finished.sort()).toEqual(started.sort());
  });

  it("branch_taken precedes the steps it causes", () => {
    const r = simulate(refundTriage(), (s) => (s.nodeId === "triage" ? { branch: "refund" } : ok));
    const types = r.events.map((e) => (e.type === "step_started" ? `start:${e.nodeId}` : e.type));
    expect(types.indexOf("branch_taken")).toBeLessThan(types.indexOf("start:refunds"));
  });
});

describe("R9 termination", () => {
  it("succeeds with the end node's outputs once no step is still running", () => {
    const wf = buildWorkflow({
      nodes: [startNode(), agentNode("fast"), agentNode("slow"), endNode("end")],
      edges: [fwd("start", "next", "fast"), fwd("start", "next", "slow"), fwd("fast", "done", "end")],
    });
    let s = plan(wf, null, { type: "run_started", inputs: {} }).state;
    s = plan(wf, s, { type: "step_succeeded", nodeId: "start", iteration: 1, attempt: 1, output: null }).state;
    s = plan(wf, s, { type: "step_succeeded", nodeId: "fast", iteration: 1, attempt: 1, output: "f" }).state;
    const atEnd = plan(wf, s, {
      type: "step_succeeded",
      nodeId: "end",
      iteration: 1,
      attempt: 1,
      output: { answer: 42 },
    });
    expect(atEnd.commands.some((c) => c.type === "finish_run")).toBe(false);
    const done = plan(wf, atEnd.state, {
      type: "step_succeeded",
      nodeId: "slow",
      iteration: 1,
      attempt: 1,
      output: "s",
    });
    expect(done.commands).toEqual([
      { type: "finish_run", status: "succeeded", reason: 'Reached end node "end"', outputs: { answer: 42 } },
    ]);
  });

  it("an abort node ends the run aborted with its rendered reason", () => {
    const wf = buildWorkflow({ nodes: [startNode(), abortNode("stop")], edges: [fwd("start", "next", "stop")] });
    const r = simulate(wf, (s) => (s.nodeId === "stop" ? { output: { reason: "Nothing to do" } } : ok));
    expect(r.finish).toMatchObject({ status: "aborted", reason: "Nothing to do" });
  });

  it("a failed or timed-out step fails the run with the node named; a cancel ends it cancelled", () => {
    expect(simulate(chain, (s) => (s.nodeId === "a" ? { fail: "HTTP 401 from provider" } : ok)).finish).toMatchObject({
      status: "failed",
      reason: 'Step "a" (iteration 1) failed: HTTP 401 from provider',
    });
    expect(simulate(chain, (s) => (s.nodeId === "b" ? { timeout: 500 } : ok)).finish).toMatchObject({
      status: "failed",
      reason: 'Step "b" (iteration 1) timed out after 500 ms',
    });
    const s = plan(chain, null, { type: "run_started", inputs: {} }).state;
    expect(plan(chain, s, { type: "cancel_requested", reason: "user" }).commands.at(-1)).toMatchObject({
      type: "finish_run",
      status: "cancelled",
    });
  });

  it("a run that can make no progress fails instead of hanging", () => {
    const wf = buildWorkflow({
      nodes: [startNode(), agentNode("a"), agentNode("b"), agentNode("j"), endNode()],
      edges: [fwd("start", "next", "a"), fwd("a", "done", "j"), fwd("b", "done", "j"), fwd("j", "done", "end")],
    });
    const r = simulate(wf, () => ok);
    expect(r.finish).toMatchObject({
      status: "failed",
      reason: "No step can run and no end node was reached; waiting for inputs: j",
    });
  });

  it("a workflow without a start node fails at once", () => {
    const r = plan(buildWorkflow({ nodes: [endNode()] }), null, { type: "run_started", inputs: {} });
    expect(r.commands).toEqual([
      { type: "finish_run", status: "failed", reason: "The workflow must have exactly one start node (found 0)" },
    ]);
  });
});

describe("scenarios at planner level", () => {
  it.each([0, 1, 2])("A: the evaluator rejecting %i times gives k+1 outline steps and one writer", (k) => {
    const r = simulate(articleWriter(), (s, n) =>
      s.nodeId === "evaluator" ? { branch: n <= k ? "revise" : "approved" } : ok,
    );
    expect(countSteps(r.steps)).toMatchObject({ outline: k + 1, evaluator: k + 1, writer: 1, researcher: 1 });
    expect(r.finish?.status).toBe("succeeded");
    expect(r.events.some((e) => e.type === "loop_exhausted")).toBe(false);
  });

  it("A: always rejecting stops at the cap with loop_exhausted", () => {
    const r = simulate(articleWriter(), (s) => (s.nodeId === "evaluator" ? { branch: "revise" } : ok));
    expect(countSteps(r.steps)).toMatchObject({ outline: 3, writer: 1 });
    expect(r.events.filter((e) => e.type === "loop_exhausted")).toHaveLength(1);
    expect(r.state.nodes.evaluator?.loopExhausted).toBe(true);
    const aborting = simulate(articleWriter("abort"), (s) => (s.nodeId === "evaluator" ? { branch: "revise" } : ok));
    expect(aborting.finish).toMatchObject({ status: "budget_exhausted", limit: "loop:evaluator-revise-outline" });
    expect(countSteps(aborting.steps).writer).toBeUndefined();
  });

  it("B: the three solvers are ready together and the aggregator runs once, after all three", () => {
    const r = simulate(majorityVote(), () => ok);
    expect(r.waves[1]).toEqual(["solver1", "solver2", "solver3"]);
    const order = r.steps.map((s) => s.nodeId);
    expect(order.indexOf("aggregator")).toBeGreaterThan(3);
    expect(countSteps(r.steps).aggregator).toBe(1);
    expect(r.finish?.status).toBe("succeeded");
  });

  it("B: a failing solver fails the join at once with a clear error", () => {
    const r = simulate(majorityVote(), (s) =>
      s.nodeId === "solver2" ? { fail: "model-2 answered 500 three times" } : ok,
    );
    expect(r.finish).toMatchObject({
      status: "failed",
      reason: 'Step "solver2" (iteration 1) failed: model-2 answered 500 three times',
    });
    expect(countSteps(r.steps).aggregator).toBeUndefined();
  });

  it("D: a refund never runs the sales agent and both paths reach the same end", () => {
    const refund = simulate(refundTriage(), (s) => (s.nodeId === "triage" ? { branch: "refund" } : ok));
    expect(countSteps(refund.steps)).toEqual({ start: 1, triage: 1, refunds: 1, end: 1 });
    expect(refund.skipped).toEqual(["sales"]);
    const purchase = simulate(refundTriage(), (s) => (s.nodeId === "triage" ? { branch: "purchase" } : ok));
    expect(countSteps(purchase.steps)).toEqual({ start: 1, triage: 1, sales: 1, end: 1 });
    expect([refund.finish?.reason, purchase.finish?.reason]).toEqual([
      'Reached end node "end"',
      'Reached end node "end"',
    ]);
  });

  it("E: the traceback FSM stays within maxSteps", () => {
    const r = simulate(mlPipeline(8, 5), (s) => (s.nodeId === "evaluate" ? { branch: "data_problem" } : ok));
    expect(r.steps.length).toBeLessThanOrEqual(8);
    expect(r.finish).toMatchObject({ status: "budget_exhausted", limit: "maxSteps" });
    const good = simulate(mlPipeline(), (s, n) =>
      s.nodeId === "evaluate" ? { branch: n === 1 ? "data_problem" : "ok" } : ok,
    );
    expect(countSteps(good.steps)).toEqual({ start: 1, preprocess: 2, train: 2, evaluate: 2, report: 1, end: 1 });
    expect(good.finish?.status).toBe("succeeded");
  });
});
