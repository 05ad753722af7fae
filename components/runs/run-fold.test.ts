import { describe, expect, it } from "vitest";
import type { RunEvent, RunEventEnvelope } from "@/lib/engine/events";
import { estimateCost } from "@/lib/run-views/cost";
import type { StepView } from "@/lib/run-views/dto";
import {
  applyEnvelope,
  initialRunState,
  isFinished,
  nodeOverlay,
  orderedSteps,
  runUsage,
  subflowSteps,
  waitingReviews,
} from "./run-fold";

const run = {
  id: "r1",
  status: "queued",
  reason: null,
  workflowName: "W",
  version: 1,
  promptTokens: 0,
  completionTokens: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
  startedAt: null,
  finishedAt: null,
  trigger: "manual" as const,
};
let seq = 0;
const env = (event: RunEvent, ms: number): RunEventEnvelope => ({
  runId: "r1",
  seq: ++seq,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString(),
  event,
});
const started = (nodeId: string, iteration = 1): RunEvent => ({
  type: "step_started",
  nodeId,
  iteration,
  attempt: 1,
  kind: "agent",
});
const finished = (nodeId: string, iteration = 1): RunEvent => ({
  type: "step_finished",
  nodeId,
  iteration,
  status: "succeeded",
  promptTokens: 10,
  completionTokens: 5,
});

describe("run fold", () => {
  it("folds parallel steps, loop iterations and model usage; replays are ignored", () => {
    seq = 0;
    const events = [
      env({ type: "run_started", inputs: { q: 1 }, resumed: false, redispatched: [] }, 0),
      env(started("a"), 10),
      env(started("b"), 11),
      env(
        {
          type: "tokens_used",
          nodeId: "a",
          iteration: 1,
          model: "m1",
          promptTokens: 10,
          completionTokens: 5,
          runPromptTokens: 10,
          runCompletionTokens: 5,
        },
        20,
      ),
      env(finished("a"), 30),
      env(finished("b"), 31),
      env(started("a", 2), 40),
      env(finished("a", 2), 50),
      env({ type: "run_finished", status: "succeeded", reason: "done", outputs: { x: 1 } }, 60),
    ];
    const state = initialRunState(run, []);
    for (const e of events) expect(applyEnvelope(state, e)).toBe(true);
    for (const e of events) expect(applyEnvelope(state, e)).toBe(false);
    expect(state.events).toHaveLength(events.length);
    expect(state.status).toBe("succeeded");
    expect(state.outputs).toEqual({ x: 1 });
    expect(orderedSteps(state).map((s) => s.key)).toEqual(["a#1", "b#1", "a#2"]);
    expect(nodeOverlay(state, ["a", "b", "c"]).get("a")).toEqual({ status: "succeeded", iteration: 2 });
    expect(nodeOverlay(state, ["a", "b", "c"]).get("c")).toEqual({ status: "pending", iteration: 1 });
    expect(runUsage(state)).toEqual([{ model: "m1", promptTokens: 10, completionTokens: 5 }]);
    expect(estimateCost({ m1: { promptPer1M: 1_000_000, completionPer1M: 2_000_000 } }, runUsage(state))).toBe(20);
    expect(estimateCost({}, runUsage(state))).toBeNull();
  });

  it("a human review's question makes its step waiting and the run waiting; the answer closes it", () => {
    seq = 0;
    const request = {
      prompt: "Publish it?",
      choices: [{ id: "approve", label: "Publish" }],
      fields: [{ key: "note", type: "string", description: "", required: true }],
    };
    const state = initialRunState(run, []);
    for (const e of [
      env({ type: "run_started", inputs: {}, resumed: false, redispatched: [] }, 0),
      env({ type: "step_started", nodeId: "review", iteration: 1, attempt: 1, kind: "human" }, 10),
      env({ type: "input_requested", nodeId: "review", iteration: 1, ...request }, 10),
      env({ type: "run_waiting", steps: [{ nodeId: "review", iteration: 1 }] }, 11),
    ])
      applyEnvelope(state, e);
    expect(state.status).toBe("waiting");
    expect(isFinished(state.status)).toBe(false);
    expect(waitingReviews(state).map((s) => [s.key, s.request])).toEqual([["review#1", request]]);
    expect(nodeOverlay(state, ["review"]).get("review")).toEqual({ status: "waiting", iteration: 1 });
    applyEnvelope(state, env({ type: "run_started", inputs: {}, resumed: true, redispatched: [] }, 20));
    applyEnvelope(
      state,
      env(
        {
          type: "step_finished",
          nodeId: "review",
          iteration: 1,
          status: "succeeded",
          branch: "approve",
          output: { choice: "approve" },
          promptTokens: 0,
          completionTokens: 0,
        },
        21,
      ),
    );
    expect(state.status).toBe("running");
    expect(waitingReviews(state)).toEqual([]);
    expect(state.steps.get("review#1")?.output).toEqual({ choice: "approve" });
  });

  it("a waiting Step row rendered by the server seeds the question", () => {
    const row: StepView = {
      nodeId: "review",
      iteration: 1,
      attempt: 1,
      status: "waiting",
      branch: null,
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: null,
      error: null,
      startedAt: "2026-01-01T00:00:00.000Z",
      finishedAt: null,
      input: null,
      output: { request: { prompt: "Ok?", choices: [{ id: "yes", label: "Yes" }], fields: [] } },
    };
    const state = initialRunState({ ...run, status: "waiting" }, [row]);
    expect(waitingReviews(state)[0]?.request).toEqual({
      prompt: "Ok?",
      choices: [{ id: "yes", label: "Yes" }],
      fields: [],
    });
    expect(state.steps.get("review#1")?.output).toBeUndefined();
  });

  it("a subflow's started child run makes its step waiting (not a review) until the child's end finishes it", () => {
    seq = 0;
    const state = initialRunState(run, []);
    for (const e of [
      env({ type: "run_started", inputs: {}, resumed: false, redispatched: [] }, 0),
      env({ type: "step_started", nodeId: "sub", iteration: 1, attempt: 1, kind: "subflow" }, 10),
      env(
        {
          type: "subflow_started",
          nodeId: "sub",
          iteration: 1,
          runId: "child1",
          workflowId: "wf_s",
          workflowName: "Summarise",
          timeoutMs: 60_000,
        },
        12,
      ),
      env({ type: "run_waiting", steps: [{ nodeId: "sub", iteration: 1 }] }, 13),
    ])
      applyEnvelope(state, e);
    expect(state.status).toBe("waiting");
    expect(state.steps.get("sub#1")).toMatchObject({
      status: "waiting",
      kind: "subflow",
      subflow: { runId: "child1", workflowId: "wf_s", workflowName: "Summarise", timeoutMs: 60_000 },
    });
    expect(state.steps.get("sub#1")?.request).toBeUndefined();
    expect(waitingReviews(state)).toEqual([]);
    expect(subflowSteps(state).map((s) => [s.key, s.subflow.runId])).toEqual([["sub#1", "child1"]]);
    expect(nodeOverlay(state, ["sub"]).get("sub")).toEqual({ status: "waiting", iteration: 1 });
    applyEnvelope(
      state,
      env(
        {
          type: "step_finished",
          nodeId: "sub",
          iteration: 1,
          status: "succeeded",
          branch: "done",
          output: { summary: "About owls" },
          promptTokens: 0,
          completionTokens: 0,
        },
        30,
      ),
    );
    expect(state.steps.get("sub#1")).toMatchObject({
      status: "succeeded",
      output: { summary: "About owls" },
      subflow: { runId: "child1" },
    });
    expect(subflowSteps(state)).toHaveLength(1); // kept for the record: the page still links to the child run
  });

  it("a waiting subflow Step row rendered by the server seeds its child run, not a question", () => {
    const row: StepView = {
      nodeId: "sub",
      iteration: 1,
      attempt: 1,
      status: "waiting",
      branch: null,
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: null,
      error: null,
      startedAt: "2026-01-01T00:00:00.000Z",
      finishedAt: null,
      input: null,
      output: { request: { kind: "subflow", runId: "child1", workflowId: "wf_s", workflowName: "Summarise" } },
    };
    const state = initialRunState({ ...run, status: "waiting" }, [row]);
    expect(state.steps.get("sub#1")?.subflow).toEqual({
      runId: "child1",
      workflowId: "wf_s",
      workflowName: "Summarise",
    });
    expect(state.steps.get("sub#1")?.request).toBeUndefined();
    expect(state.steps.get("sub#1")?.output).toBeUndefined();
    expect(waitingReviews(state)).toEqual([]);
  });
});
