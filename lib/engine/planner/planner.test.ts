import { describe, expect, it } from "vitest";
import { agentNode, buildWorkflow, endNode, fwd, loop, routerNode, startNode } from "../testing/build";
import { countSteps, simulate } from "../testing/simulate";
import { plan } from "./index";

const ok = { output: "x" };

describe("R1 activation", () => {
  const diamond = (join: "all" | "any") =>
    buildWorkflow({
      nodes: [startNode(), agentNode("a"), agentNode("b"), agentNode("j", ["done"], { join }), endNode()],
      edges: [
        fwd("start", "next", "a"),
        fwd("start", "next", "b"),
        fwd("a", "done", "j"),
        fwd("b", "done", "j"),
        fwd("j", "done", "end"),
      ],
    });

  it("join=all starts the join only after every incoming edge delivered, once", () => {
    const r = simulate(diamond("all"), () => ok);
    expect(r.waves).toEqual([["start"], ["a", "b"], [], ["j"], ["end"], []]);
    expect(countSteps(r.steps).j).toBe(1);
    expect(r.steps.find((s) => s.nodeId === "j")?.input.via.toSorted()).toEqual(["a-done-j", "b-done-j"]);
    expect(r.finish?.status).toBe("succeeded");
  });

  it("join=any starts on the first delivery and swallows the rest of that round", () => {
    const r = simulate(diamond("any"), () => ok);
    expect(r.waves[2]).toEqual(["j"]);
    expect(countSteps(r.steps).j).toBe(1);
    expect(r.finish?.status).toBe("succeeded");
  });
});

describe("R2 fan-out is concurrent", () => {
  it("emits every node made ready by one event in the same pass", () => {
    const wf = buildWorkflow({
      nodes: [startNode(), agentNode("p"), agentNode("q"), agentNode("r"), agentNode("j"), endNode()],
      edges: [
        ...["p", "q", "r"].map((n) => fwd("start", "next", n)),
        ...["p", "q", "r"].map((n) => fwd(n, "done", "j")),
        fwd("j", "done", "end"),
      ],
    });
    const r = simulate(wf, () => ok);
    expect(r.waves[1]).toEqual(["p", "q", "r"]);
  });
});

describe("R3 dead paths", () => {
  const wf = buildWorkflow({
    nodes: [
      startNode(),
      routerNode("route", ["left", "right"]),
      agentNode("l1"),
      agentNode("l2"),
      agentNode("r1"),
      agentNode("join"),
      endNode(),
    ],
    edges: [
      fwd("start", "next", "route"),
      fwd("route", "left", "l1"),
      fwd("l1", "done", "l2"),
      fwd("route", "right", "r1"),
      fwd("l2", "done", "join"),
      fwd("r1", "done", "join"),
      fwd("join", "done", "end"),
    ],
  });

  it("skips every node reachable only through the untaken branch, transitively, and the join does not wait", () => {
    const r = simulate(wf, (s) => (s.nodeId === "route" ? { branch: "right" } : ok));
    expect(r.skipped).toEqual(["l1", "l2"]);
    expect(countSteps(r.steps)).toEqual({ start: 1, route: 1, r1: 1, join: 1, end: 1 });
    const taken = r.events.find((e) => e.type === "branch_taken");
    expect(taken).toMatchObject({ nodeId: "route", branch: "right", targets: ["r1"], skipped: ["l1", "l2"] });
    expect(r.finish?.status).toBe("succeeded");
  });

  it("a node whose every input is dead is skipped, including an end", () => {
    const two = buildWorkflow({
      nodes: [startNode(), routerNode("route", ["a", "b"]), agentNode("x"), endNode("e1"), endNode("e2")],
      edges: [fwd("start", "next", "route"), fwd("route", "a", "x"), fwd("x", "done", "e1"), fwd("route", "b", "e2")],
    });
    const r = simulate(two, (s) => (s.nodeId === "route" ? { branch: "b" } : ok));
    expect(r.skipped).toEqual(["x", "e1"]);
    expect(r.finish).toMatchObject({ status: "succeeded", reason: 'Reached end node "e2"' });
  });
});

describe("R4 loops", () => {
  const selfLoop = (onExhausted: "continue" | "abort") =>
    buildWorkflow({
      nodes: [startNode(), agentNode("draft", ["good", "refine"]), agentNode("publish"), endNode()],
      edges: [
        fwd("start", "next", "draft"),
        loop("draft", "refine", "draft", 3, onExhausted),
        fwd("draft", "good", "publish"),
        fwd("publish", "done", "end"),
      ],
    });

  it("a self loop re-runs the node with new iterations and the previous output as feedback", () => {
    const r = simulate(selfLoop("abort"), (s, n) =>
      s.nodeId === "draft" ? { branch: n < 3 ? "refine" : "good", output: `draft v${n}` } : ok,
    );
    const drafts = r.steps.filter((s) => s.nodeId === "draft");
    expect(drafts.map((s) => s.iteration)).toEqual([1, 2, 3]);
    expect(drafts.map((s) => s.input.feedback)).toEqual([undefined, "draft v1", "draft v2"]);
    expect(r.events.filter((e) => e.type === "loop_iteration").map((e) => e.iteration)).toEqual([2, 3]);
    expect(r.finish?.status).toBe("succeeded");
  });

  it("onExhausted=abort ends the run budget_exhausted naming the loop", () => {
    const r = simulate(selfLoop("abort"), (s) => (s.nodeId === "draft" ? { branch: "refine" } : ok));
    expect(countSteps(r.steps).draft).toBe(3);
    expect(r.finish).toMatchObject({ status: "budget_exhausted", limit: "loop:draft-refine-draft" });
    expect(r.finish?.reason).toContain("maxIterations (3)");
  });

  it("onExhausted=continue follows the other branch with the last output and flags loop_exhausted", () => {
    const r = simulate(selfLoop("continue"), (s, n) =>
      s.nodeId === "draft" ? { branch: "refine", output: `v${n}` } : ok,
    );
    expect(countSteps(r.steps)).toMatchObject({ draft: 3, publish: 1, end: 1 });
    expect(r.events.find((e) => e.type === "loop_exhausted")).toMatchObject({
      action: "continue",
      continueWith: "good",
    });
    expect(r.state.nodes.draft).toMatchObject({ loopExhausted: true, output: "v3" });
    expect(r.finish?.status).toBe("succeeded");
  });

  it("a traceback re-runs every node between target and source, re-arming joins fed from outside the loop", () => {
    const wf = buildWorkflow({
      nodes: [startNode(), agentNode("a"), agentNode("b"), agentNode("c", ["ok", "back"]), endNode()],
      edges: [
        fwd("start", "next", "a"),
        fwd("a", "done", "b"),
        fwd("start", "next", "b"),
        fwd("b", "done", "c"),
        loop("c", "back", "a", 3),
        fwd("c", "ok", "end"),
      ],
    });
    const r = simulate(wf, (s, n) => (s.nodeId === "c" ? { branch: n === 1 ? "back" : "ok" } : ok));
    expect(countSteps(r.steps)).toEqual({ start: 1, a: 2, b: 2, c: 2, end: 1 });
    expect(r.finish?.status).toBe("succeeded");
  });
});

describe("R4 nested loops", () => {
  it("an inner loop gets a fresh count on each iteration of the outer loop", () => {
    const wf = buildWorkflow({
      nodes: [startNode(), agentNode("draft", ["ok", "again"]), agentNode("review", ["pass", "redo"]), endNode()],
      edges: [
        fwd("start", "next", "draft"),
        loop("draft", "again", "draft", 2, "continue"),
        fwd("draft", "ok", "review"),
        loop("review", "redo", "draft", 2, "continue"),
        fwd("review", "pass", "end"),
      ],
    });
    const r = simulate(wf, (s) =>
      s.nodeId === "draft" ? { branch: "again" } : s.nodeId === "review" ? { branch: "redo" } : ok,
    );
    expect(countSteps(r.steps)).toEqual({ start: 1, draft: 4, review: 2, end: 1 });
    expect(r.finish?.status).toBe("succeeded");
  });
});

describe("R5 branch choice", () => {
  const wf = buildWorkflow({
    nodes: [startNode(), routerNode("route", ["yes", "no"]), agentNode("y"), agentNode("n"), endNode()],
    edges: [
      fwd("start", "next", "route"),
      fwd("route", "yes", "y"),
      fwd("route", "no", "n"),
      fwd("y", "done", "end"),
      fwd("n", "done", "end"),
    ],
  });

  it("an unknown branch fails the node and the run, never falling back to the first branch", () => {
    const r = simulate(wf, (s) => (s.nodeId === "route" ? { branch: "maybe" } : ok));
    expect(countSteps(r.steps).y).toBeUndefined();
    expect(r.finish?.status).toBe("failed");
    expect(r.finish?.reason).toBe(
      'Step "route" (iteration 1) failed: chose unknown branch "maybe" (declared: yes, no)',
    );
  });

  it("no branch on a node with several outcomes fails too", () => {
    const r = simulate(wf, () => ok);
    expect(r.finish?.reason).toContain("chose no branch");
    expect(countSteps(r.steps).y).toBeUndefined();
  });
});

describe("R6 budgets", () => {
  const fan = (limits: Record<string, number>) =>
    buildWorkflow({
      limits: { maxSteps: 100, maxIterationsPerLoop: 3, runTimeoutMs: 60_000, maxTurnsPerVisit: 8, ...limits },
      nodes: [startNode(), agentNode("p"), agentNode("q"), agentNode("j"), endNode()],
      edges: [
        fwd("start", "next", "p"),
        fwd("start", "next", "q"),
        fwd("p", "done", "j"),
        fwd("q", "done", "j"),
        fwd("j", "done", "end"),
      ],
    });

  it("maxSteps is shared by parallel branches; exceeding it ends budget_exhausted naming the limit", () => {
    const r = simulate(fan({ maxSteps: 3 }), () => ok);
    expect(r.steps).toHaveLength(3);
    expect(r.finish).toMatchObject({ status: "budget_exhausted", limit: "maxSteps" });
  });

  it("the token budget is shared: parallel branches together exhaust it and in-flight steps are cancelled", () => {
    const r = simulate(fan({ tokenBudget: 150 }), () => ({
      output: "x",
      tokens: { promptTokens: 50, completionTokens: 30 },
    }));
    expect(r.finish).toMatchObject({ status: "budget_exhausted", limit: "tokenBudget" });
    expect(r.state.tokens).toEqual({ promptTokens: 100, completionTokens: 60 });
    expect(r.events.some((e) => e.type === "step_finished" && e.status === "cancelled" && e.nodeId === "q")).toBe(true);
  });

  it("the run deadline ends budget_exhausted with runTimeoutMs and cancels running steps", () => {
    const wf = fan({});
    const started = plan(wf, null, { type: "run_started", inputs: {} });
    const r = plan(wf, started.state, { type: "deadline", timeoutMs: 60_000 });
    expect(r.commands).toEqual([
      {
        type: "cancel_steps",
        steps: [{ nodeId: "start", iteration: 1, attempt: 1, reason: "runTimeoutMs (60000) elapsed" }],
      },
      { type: "finish_run", status: "budget_exhausted", reason: "runTimeoutMs (60000) elapsed", limit: "runTimeoutMs" },
    ]);
  });

  it("a limit hit inside a step (maxTurnsPerVisit) ends the run budget_exhausted", () => {
    const r = simulate(fan({}), (s) => (s.nodeId === "p" ? { fail: "used 8 turns", limit: "maxTurnsPerVisit" } : ok));
    expect(r.finish).toMatchObject({ status: "budget_exhausted", limit: "maxTurnsPerVisit" });
  });
});
