import { describe, expect, it } from "vitest";
import { defaultEvaluators, gateVerdict } from "./compare";

const score = (s: number, extra: Partial<{ succeeded: number; calls: number }> = {}) => ({
  score: s,
  succeeded: 3,
  rows: 3,
  calls: 12,
  tokens: 100,
  ...extra,
});

describe("the simplify gate", () => {
  it("keeps a merge whose score stays within the tolerance, and rejects one that falls further", () => {
    expect(gateVerdict(score(1), score(0.96), 0.05)).toMatchObject({ kept: true });
    expect(gateVerdict(score(1), score(0.95), 0.05)).toMatchObject({ kept: true });
    expect(gateVerdict(score(0.5), score(0.9), 0.05)).toMatchObject({ kept: true });
    const no = gateVerdict(score(1), score(0.5, { succeeded: 1 }), 0.05);
    expect(no).toEqual({
      kept: false,
      reason: "score fell from 1 to 0.5 (more than 0.05); 2 of 3 runs did not succeed",
    });
    expect(gateVerdict(score(1), score(0.5), 0.5)).toMatchObject({ kept: true });
  });

  it("scores against the dataset's references when rows have them, else against the original's answers", () => {
    expect(
      defaultEvaluators([
        { inputs: {}, reference: "391" },
        { inputs: {}, reference: null },
      ]),
    ).toMatchObject({
      reference: "dataset",
      evaluators: [{ kind: "contains" }],
    });
    expect(defaultEvaluators([{ inputs: {}, reference: null }])).toMatchObject({
      reference: "original",
      evaluators: [{ kind: "judge" }],
    });
  });
});
