import { describe, expect, it } from "vitest";
import { runInfoView, stepView } from "./dto";

const at = new Date("2026-01-02T03:04:05.000Z");

describe("run dto builders", () => {
  it("stepView names its fields: content and columns it does not list stay out; dates become ISO strings", () => {
    const row = {
      nodeId: "a",
      iteration: 2,
      attempt: 1,
      status: "succeeded",
      branch: "done",
      promptTokens: 3,
      completionTokens: 4,
      latencyMs: 5,
      error: null,
      startedAt: at,
      finishedAt: null,
      input: { secret: 1 },
      output: "SECRET",
      leaseOwner: "host:1:x",
    };
    expect(stepView(row)).toEqual({
      nodeId: "a",
      iteration: 2,
      attempt: 1,
      status: "succeeded",
      branch: "done",
      promptTokens: 3,
      completionTokens: 4,
      latencyMs: 5,
      error: null,
      startedAt: "2026-01-02T03:04:05.000Z",
      finishedAt: null,
    });
  });

  it("runInfoView leaves inputs, outputs, the trigger's label and owner columns out", () => {
    const row = {
      id: "r",
      status: "running",
      reason: null,
      workflowName: "W",
      version: 3,
      promptTokens: 1,
      completionTokens: 2,
      createdAt: at,
      startedAt: at,
      finishedAt: null,
      inputs: { q: "SECRET" },
      outputs: null,
      workspaceId: "u1",
      trigger: "webhook" as const,
      triggerLabel: "SECRET hook",
    };
    expect(runInfoView(row)).toEqual({
      id: "r",
      status: "running",
      reason: null,
      workflowName: "W",
      version: 3,
      promptTokens: 1,
      completionTokens: 2,
      createdAt: "2026-01-02T03:04:05.000Z",
      startedAt: "2026-01-02T03:04:05.000Z",
      finishedAt: null,
      trigger: "webhook",
    });
  });
});
