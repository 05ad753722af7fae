import { describe, expect, it } from "vitest";
import type { RunEvent, RunEventEnvelope } from "@/lib/engine/events";
import { estimateCost } from "@/lib/runs/cost";
import { applyEnvelope, initialRunState, nodeOverlay, orderedSteps, runUsage } from "./run-fold";

const run = { id: "r1", status: "queued", reason: null, workflowName: "W", version: 1, promptTokens: 0, completionTokens: 0, createdAt: "2026-01-01T00:00:00.000Z", startedAt: null, finishedAt: null, trigger: "manual" as const };
let seq = 0;
const env = (event: RunEvent, ms: number): RunEventEnvelope => ({ runId: "r1", seq: ++seq, at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString(), event });
const started = (nodeId: string, iteration = 1): RunEvent => ({ type: "step_started", nodeId, iteration, attempt: 1, kind: "agent" });
const finished = (nodeId: string, iteration = 1): RunEvent => ({ type: "step_finished", nodeId, iteration, status: "succeeded", promptTokens: 10, completionTokens: 5 });

describe("run fold", () => {
  it("folds parallel steps, loop iterations and model usage; replays are ignored", () => {
    seq = 0;
    const events = [
      env({ type: "run_started", inputs: { q: 1 }, resumed: false, redispatched: [] }, 0),
      env(started("a"), 10), env(started("b"), 11),
      env({ type: "tokens_used", nodeId: "a", iteration: 1, model: "m1", promptTokens: 10, completionTokens: 5, runPromptTokens: 10, runCompletionTokens: 5 }, 20),
      env(finished("a"), 30), env(finished("b"), 31),
      env(started("a", 2), 40), env(finished("a", 2), 50),
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
});
