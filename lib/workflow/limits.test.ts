import { describe, expect, it } from "vitest";
import { checkLimitCeilings, DEFAULT_RUN_LIMIT_CEILINGS } from "./limits";
import { workflowSchema } from "./schema";
import { workflowTemplates } from "./templates";
import { validate } from "./validate";

const c = { maxSteps: 10, maxIterations: 5, runTimeoutMs: 60_000, maxTurnsPerVisit: 4 };

describe("checkLimitCeilings", () => {
  it("flags every limit above its ceiling, and none at or below it", () => {
    const doc = workflowSchema.parse({
      limits: { maxSteps: 11, maxIterationsPerLoop: 5, runTimeoutMs: 60_001, maxTurnsPerVisit: 4 },
      agents: [{ key: "a", name: "A" }],
      nodes: [
        { id: "s", type: "start" },
        { id: "w", type: "agent", agent: "a", timeoutMs: 60_001, maxTurnsPerVisit: 5 },
        { id: "h", type: "human", prompt: "ok?", timeoutMs: 86_400_000, branches: [{ id: "y", label: "Yes" }] },
      ],
      edges: [
        {
          id: "l",
          source: "w",
          sourceHandle: "done",
          target: "w",
          kind: "loop",
          maxIterations: 6,
          onExhausted: "abort",
        },
      ],
    });
    expect(checkLimitCeilings(doc, c).map((i) => [i.code, i.field ?? i.edgeId ?? i.nodeId])).toEqual([
      ["limit_above_ceiling", "limits.maxSteps"],
      ["limit_above_ceiling", "limits.runTimeoutMs"],
      ["limit_above_ceiling", "l"],
      ["limit_above_ceiling", "w"],
      ["limit_above_ceiling", "w"],
    ]);
  });

  it("is part of validate() when the context gives ceilings; every template fits the default ceilings", () => {
    const doc = workflowSchema.parse({ limits: { maxSteps: 11 } });
    expect(validate(doc, { ceilings: c }).some((i) => i.code === "limit_above_ceiling")).toBe(true);
    expect(validate(doc).some((i) => i.code === "limit_above_ceiling")).toBe(false);
    for (const t of workflowTemplates)
      expect(checkLimitCeilings(t.workflow, DEFAULT_RUN_LIMIT_CEILINGS), t.id).toEqual([]);
  });
});
