import { describe, expect, it } from "vitest";
import { instantExecutors, type InstantExecutor } from "../executors";
import { buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { fakePorts, ScriptedModel } from "../testing/fakes";
import { runInstantStep, type StepHost } from "./step-runner";

const workflow = buildWorkflow({
  nodes: [startNode(), endNode("end", { echo: "{{inputs.topic}}" })],
  edges: [fwd("start", "next", "end")],
});

function host(): StepHost & { posted: unknown[] } {
  const posted: unknown[] = [];
  return {
    runId: "r1",
    workflow,
    ports: fakePorts({ model: new ScriptedModel(() => ({ content: "unused" })) }),
    executors: {} as StepHost["executors"],
    jobSignal: new AbortController().signal,
    post: (i) => void posted.push(i),
    posted,
  };
}

const start = (nodeId: string, kind: string) => ({
  type: "start_step" as const,
  nodeId,
  kind,
  iteration: 1,
  attempt: 1,
  input: { via: [] },
});
const data = { inputs: { topic: "tides" }, vars: {}, nodes: {} };

describe("runInstantStep", () => {
  it("answers the step's result at once, not a promise: nothing else runs between a batch's planning and its commit", () => {
    const h = host();
    const started = runInstantStep(h, start("start", "start"), data, instantExecutors.start as InstantExecutor);
    expect(started).not.toBeInstanceOf(Promise);
    expect(started).toEqual({
      type: "step_succeeded",
      nodeId: "start",
      iteration: 1,
      attempt: 1,
      output: { topic: "tides" },
      branch: "next",
      usage: { promptTokens: 0, completionTokens: 0 },
      latencyMs: 0,
    });
    const ended = runInstantStep(h, start("end", "end"), data, instantExecutors.end as InstantExecutor);
    expect(ended).toMatchObject({ type: "step_succeeded", nodeId: "end", output: { echo: "tides" } });
    expect(h.posted).toEqual([]);
  });

  it("turns a throw into a failed step, and a node missing from the workflow into one", () => {
    const throwing: InstantExecutor = () => {
      throw new Error("template broke");
    };
    expect(runInstantStep(host(), start("end", "end"), data, throwing)).toMatchObject({
      type: "step_failed",
      nodeId: "end",
      error: "template broke",
    });
    expect(runInstantStep(host(), start("gone", "end"), data, instantExecutors.end as InstantExecutor)).toMatchObject({
      type: "step_failed",
      nodeId: "gone",
      error: "node not found in the workflow",
    });
  });
});
