import { describe, expect, it } from "vitest";
import type { RunEvent, RunEventEnvelope } from "@/lib/engine/events";
import { applyEnvelope, initialRunState, nodeOverlay, retryPreview, type RunState } from "./run-fold";

const run = {
  id: "r2",
  status: "queued",
  reason: null,
  workflowName: "W",
  version: 3,
  promptTokens: 0,
  completionTokens: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
  startedAt: null,
  finishedAt: null,
  trigger: "retry" as const,
};
const fold = (events: RunEvent[]): RunState => {
  const state = initialRunState(run, []);
  events.forEach((event, i) => {
    const env: RunEventEnvelope = {
      runId: "r2",
      seq: i + 1,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      event,
    };
    applyEnvelope(state, env);
  });
  return state;
};

describe("run fold: retries, recoveries and reused steps", () => {
  it("keeps each try of a retried step, with why it failed and when the next one is due", () => {
    const retrying = fold([
      { type: "step_started", nodeId: "t", iteration: 1, attempt: 1, kind: "tool" },
      {
        type: "step_retrying",
        nodeId: "t",
        iteration: 1,
        attempt: 1,
        error: "503",
        errorClass: "tool_error",
        retry: 1,
        maxRetries: 2,
        delayMs: 1000,
        retryAt: "2026-01-01T00:00:02.000Z",
        promptTokens: 0,
        completionTokens: 0,
      },
    ]);
    const waiting = retrying.steps.get("t#1")!;
    expect(waiting).toMatchObject({
      status: "retrying",
      error: "503",
      errorClass: "tool_error",
      retryAt: "2026-01-01T00:00:02.000Z",
    });
    expect(nodeOverlay(retrying, ["t"]).get("t")).toEqual({ status: "running", iteration: 1 });
    const done = fold([
      { type: "step_started", nodeId: "t", iteration: 1, attempt: 1, kind: "tool" },
      {
        type: "step_retrying",
        nodeId: "t",
        iteration: 1,
        attempt: 1,
        error: "503",
        errorClass: "tool_error",
        retry: 1,
        maxRetries: 2,
        delayMs: 1000,
        retryAt: "2026-01-01T00:00:02.000Z",
        promptTokens: 0,
        completionTokens: 0,
      },
      { type: "step_started", nodeId: "t", iteration: 1, attempt: 2, kind: "tool", retry: 1 },
      {
        type: "step_finished",
        nodeId: "t",
        iteration: 1,
        status: "failed",
        branch: "error",
        output: { error: "503" },
        error: "503",
        errorClass: "tool_error",
        recovered: "error_branch",
        promptTokens: 0,
        completionTokens: 0,
      },
    ]);
    const s = done.steps.get("t#1")!;
    expect(s).toMatchObject({
      status: "failed",
      attempt: 2,
      recovered: "error_branch",
      retryAt: null,
      startedAt: "2026-01-01T00:00:00.000Z",
    });
    expect(s.attempts).toEqual([
      {
        attempt: 1,
        retry: 0,
        startedAt: "2026-01-01T00:00:00.000Z",
        finishedAt: "2026-01-01T00:00:01.000Z",
        status: "failed",
        error: "503",
        errorClass: "tool_error",
      },
      {
        attempt: 2,
        retry: 1,
        startedAt: "2026-01-01T00:00:02.000Z",
        finishedAt: "2026-01-01T00:00:03.000Z",
        status: "failed",
        error: "503",
        errorClass: "tool_error",
      },
    ]);
  });

  it("marks the steps a retry or fork reused, and previews what a retry reuses and runs first", () => {
    const state = fold([
      {
        type: "step_started",
        nodeId: "a",
        iteration: 1,
        attempt: 1,
        kind: "agent",
        reused: { runId: "r1", edited: false },
      },
      {
        type: "step_finished",
        nodeId: "a",
        iteration: 1,
        status: "succeeded",
        branch: "done",
        output: "x",
        promptTokens: 0,
        completionTokens: 0,
      },
      {
        type: "step_started",
        nodeId: "b",
        iteration: 1,
        attempt: 1,
        kind: "agent",
        reused: { runId: "r1", edited: true },
      },
      {
        type: "step_finished",
        nodeId: "b",
        iteration: 1,
        status: "succeeded",
        branch: "done",
        output: "y",
        promptTokens: 0,
        completionTokens: 0,
      },
      { type: "step_started", nodeId: "c", iteration: 1, attempt: 1, kind: "agent" },
      {
        type: "step_finished",
        nodeId: "c",
        iteration: 1,
        status: "failed",
        error: "400",
        promptTokens: 0,
        completionTokens: 0,
      },
    ]);
    expect(state.steps.get("a#1")?.reused).toEqual({ runId: "r1", edited: false });
    expect(state.steps.get("b#1")?.reused).toEqual({ runId: "r1", edited: true });
    expect(state.steps.get("c#1")?.reused).toBeNull();
    expect(retryPreview([...state.steps.values()], (id) => id.toUpperCase(), 3)).toEqual({
      reusable: 2,
      failed: ["C"],
      version: 3,
    });
  });
});
