import { describe, expect, it } from "vitest";
import { parsePlannerState, type PlannerState } from "../planner";
import type { StepRecord } from "../ports";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { fakePorts, ScriptedModel, type RecordedCall } from "../testing/fakes";
import { MemoryStore } from "@/lib/engine/memory-store";
import { runJob } from "./index";
import { storedState, withStepData } from "./stored-state";

const node = (extra: Partial<PlannerState["nodes"][string]>) => ({
  phase: "done" as const,
  iteration: 1,
  attempt: 1,
  inbox: {},
  absorb: [],
  ...extra,
});
const row = (
  nodeId: string,
  iteration: number,
  status: StepRecord["status"],
  output: unknown,
  input: unknown = { via: ["e"] },
): StepRecord => ({
  nodeId,
  iteration,
  attempt: 1,
  status,
  input,
  output,
  branch: null,
  promptTokens: 0,
  completionTokens: 0,
  latencyMs: null,
  error: null,
  leaseOwner: "w",
  startedAt: null,
  finishedAt: null,
});

describe("planner state as stored", () => {
  it("leaves out node outputs and step inputs, without touching the state in memory", () => {
    const state = parsePlannerState({
      nodes: {
        a: node({ output: "long text", input: { via: ["e"], feedback: "fix it" } }),
        b: node({ phase: "idle", iteration: 0 }),
      },
    })!;
    const stored = storedState(state);
    expect(JSON.stringify(stored)).not.toContain("long text");
    expect(JSON.stringify(stored)).not.toContain("fix it");
    expect(stored.nodes.a).toMatchObject({ phase: "done", iteration: 1 });
    expect(state.nodes.a!.output).toBe("long text");
  });

  it("leaves out empty inboxes and absorb lists, which parsing the stored state restores; non-empty ones stay", () => {
    const state = parsePlannerState({
      nodes: { a: node({}), j: node({ phase: "idle", inbox: { e1: "data" }, absorb: ["e2"] }) },
    })!;
    const stored = storedState(state);
    expect(stored.nodes.a).not.toHaveProperty("inbox");
    expect(stored.nodes.a).not.toHaveProperty("absorb");
    expect(stored.nodes.j).toMatchObject({ inbox: { e1: "data" }, absorb: ["e2"] });
    expect(parsePlannerState(JSON.parse(JSON.stringify(stored)))).toEqual(state);
    expect(state.nodes.a).toMatchObject({ inbox: {}, absorb: [] });
  });

  it("puts back the latest successful step's output and the current iteration's input from the Step rows", () => {
    const stored = parsePlannerState({
      nodes: { gen: node({ phase: "running", iteration: 3, attempt: 2 }), judge: node({ iteration: 2 }) },
    })!;
    const state = withStepData(stored, [
      row("gen", 1, "succeeded", "draft 1"),
      row("gen", 2, "succeeded", "draft 2", { via: [], loopEdge: "loop", feedback: "shorter" }),
      row("gen", 3, "running", null, { via: [], loopEdge: "loop", feedback: "shorter still" }),
      row("judge", 1, "succeeded", { verdict: "revise" }),
      row("judge", 2, "failed", null),
    ]);
    expect(state.nodes.gen).toMatchObject({
      output: "draft 2",
      input: { via: [], loopEdge: "loop", feedback: "shorter still" },
    });
    expect(state.nodes.judge!.output).toEqual({ verdict: "revise" });
  });

  it("a state stored with its outputs (before they were left out) keeps them where no row says otherwise", () => {
    const old = parsePlannerState({ nodes: { a: node({ output: "kept" }) } })!;
    expect(withStepData(old, []).nodes.a!.output).toBe("kept");
  });
});

describe("a resumed run reads earlier outputs from the Step rows", () => {
  const taskOf = (c: RecordedCall) => c.messages.find((m) => m.role === "user")?.content ?? "";
  const wf = buildWorkflow({
    nodes: [
      startNode(),
      agentNode("a"),
      agentNode("b", ["done"], { task: "Improve {{nodes.a.output}}" }),
      endNode("end", { first: "{{nodes.a.output}}", final: "{{nodes.b.output}}" }),
    ],
    edges: [fwd("start", "next", "a"), fwd("a", "done", "b"), fwd("b", "done", "end")],
  });

  it("after a crash before b's result, the next worker renders a's output into b's task and the run's outputs", async () => {
    const store = new MemoryStore();
    store.create("r1", wf, {});
    let crashed = false;
    store.beforeCommit = (_id, c) => {
      if (!crashed && c.stepResults?.some((s) => s.nodeId === "b")) {
        crashed = true;
        throw new Error("worker killed");
      }
    };
    const w1 = new ScriptedModel((c) => ({ content: taskOf(c) === "Do a" ? "alpha by w1" : "b by w1" }));
    await expect(runJob(fakePorts({ store, model: w1 }), "r1", { owner: "w1" })).rejects.toThrow("worker killed");
    expect(JSON.stringify(store.run("r1").plannerState)).not.toContain("alpha by w1");

    const w2 = new ScriptedModel((c) => ({ content: `w2 did: ${taskOf(c)}` }));
    expect(await runJob(fakePorts({ store, model: w2 }), "r1", { owner: "w2" })).toMatchObject({
      kind: "terminal",
      status: "succeeded",
    });
    expect(w2.calls.map(taskOf)).toEqual(["Improve alpha by w1"]);
    expect(store.run("r1").outputs).toEqual({ first: "alpha by w1", final: "w2 did: Improve alpha by w1" });
  });
});
