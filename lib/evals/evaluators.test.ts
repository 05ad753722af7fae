import { describe, expect, it } from "vitest";
import { evaluatorListSchema, evaluatorSpecSchema, type EvaluatorSpec } from "./evaluator-spec";
import { combineResults, evaluateDeterministic, type CellFacts } from "./evaluators";

const facts = (over: Partial<CellFacts> = {}): CellFacts => ({
  inputs: { topic: "owls" },
  outputs: { answer: "Owls hoot at night" },
  reference: { answer: "owls hoot at night" },
  runStatus: "succeeded",
  latencyMs: 120,
  tokens: 50,
  costUsd: null,
  ...over,
});
const spec = (raw: Record<string, unknown>) =>
  evaluatorSpecSchema.parse({ name: "e", ...raw }) as Exclude<EvaluatorSpec, { kind: "judge" }>;
const score = (raw: Record<string, unknown>, f = facts()) => evaluateDeterministic(spec(raw), f);

describe("deterministic evaluators", () => {
  it("exact: against the row's reference, with and without case", () => {
    expect(score({ kind: "exact" }).score).toBe(0);
    expect(score({ kind: "exact", ignoreCase: true })).toMatchObject({ score: 1, passed: true });
    expect(score({ kind: "exact", expected: "Owls hoot at night" }).score).toBe(1);
    expect(score({ kind: "exact" }, facts({ reference: null }))).toMatchObject({ score: null, passed: null });
    expect(
      score({ kind: "exact" }, facts({ outputs: { a: { x: [1, 2] } }, reference: { a: { x: [1, 2] } } })).score,
    ).toBe(1);
  });

  it("contains, regex, length", () => {
    expect(score({ kind: "contains", value: "HOOT" }).score).toBe(1);
    expect(score({ kind: "contains", value: "bark" }).score).toBe(0);
    expect(score({ kind: "regex", pattern: "^Owls\\b" }).score).toBe(1);
    expect(score({ kind: "regex", pattern: "night$", flags: "i" }).score).toBe(1);
    expect(score({ kind: "length", min: 5, max: 18 }).score).toBe(1);
    expect(score({ kind: "length", max: 5 })).toMatchObject({ score: 0, detail: "18 characters, outside 0–5" });
  });

  it("a pattern that backtracks catastrophically is stopped within its time limit and gives no verdict", () => {
    const started = Date.now();
    const v = score({ kind: "regex", pattern: "^(a+)+$" }, facts({ outputs: { text: `${"a".repeat(60)}b` } }));
    expect(v).toMatchObject({ score: null });
    expect(v.detail).toContain("was stopped");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("json_schema: an object output, a JSON string output, and not JSON", () => {
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    expect(score({ kind: "json_schema", schema }, facts({ outputs: { out: { n: 3 } } })).score).toBe(1);
    expect(score({ kind: "json_schema", schema }, facts({ outputs: { out: '{"n": 3}' } })).score).toBe(1);
    expect(score({ kind: "json_schema", schema }, facts({ outputs: { out: '{"n": "3"}' } })).score).toBe(0);
    expect(score({ kind: "json_schema", schema }, facts({ outputs: { out: "three" } }))).toMatchObject({
      score: 0,
      detail: "not JSON",
    });
  });

  it("numeric within a tolerance, numbers given as text too", () => {
    expect(
      score({ kind: "numeric", tolerance: 0.5 }, facts({ outputs: { n: "3.4" }, reference: { n: 3 } })).score,
    ).toBe(1);
    expect(
      score({ kind: "numeric", tolerance: 0.1, field: "n" }, facts({ outputs: { n: 3.4 }, reference: { n: 3 } })).score,
    ).toBe(0);
    expect(score({ kind: "numeric", expected: 7 }, facts({ outputs: { n: "seven" } })).score).toBe(0);
  });

  it("latency and cost thresholds; a cost without a price does not apply", () => {
    expect(score({ kind: "latency", maxMs: 100 }).score).toBe(0);
    expect(score({ kind: "latency", maxMs: 200 }).score).toBe(1);
    expect(score({ kind: "cost", maxUsd: 0.01 })).toMatchObject({ score: null });
    expect(score({ kind: "cost", maxUsd: 0.01 }, facts({ costUsd: 0.02 })).score).toBe(0);
    expect(score({ kind: "cost", maxTokens: 60 }).score).toBe(1);
  });

  it("refuses specs that cannot work", () => {
    expect(evaluatorSpecSchema.safeParse({ kind: "regex", name: "r", pattern: "(" }).success).toBe(false);
    expect(evaluatorSpecSchema.safeParse({ kind: "length", name: "l" }).success).toBe(false);
    expect(
      evaluatorSpecSchema.safeParse({ kind: "judge", name: "j", rubric: "x", scale: { min: 5, max: 1 } }).success,
    ).toBe(false);
    expect(evaluatorSpecSchema.safeParse({ kind: "exact", name: "x", weight: 0 }).success).toBe(false);
    expect(evaluatorSpecSchema.safeParse({ kind: "nope", name: "x" }).success).toBe(false);
    expect(
      evaluatorListSchema.safeParse([
        { kind: "exact", name: "a" },
        { kind: "contains", name: "a", value: "x" },
      ]).success,
    ).toBe(false);
    expect(evaluatorListSchema.safeParse([]).success).toBe(false);
  });
});

describe("a cell's score", () => {
  const specs = evaluatorListSchema.parse([
    { kind: "exact", name: "a", weight: 3 },
    { kind: "contains", name: "b", value: "x" },
    { kind: "cost", name: "c", maxUsd: 1 },
  ]);
  it("is the weighted mean of the scores that apply; passed only when each that scored passed", () => {
    const results = [
      { name: "a", kind: "exact" as const, score: 1, passed: true, detail: "" },
      { name: "b", kind: "contains" as const, score: 0, passed: false, detail: "" },
      { name: "c", kind: "cost" as const, score: null, passed: null, detail: "" },
    ];
    expect(combineResults(specs, results, "succeeded")).toEqual({ score: 0.75, passed: false });
    expect(combineResults(specs, results.slice(0, 1), "succeeded")).toEqual({ score: 1, passed: true });
    expect(combineResults(specs, results.slice(0, 1), "failed")).toEqual({ score: 1, passed: false });
    expect(combineResults(specs, results.slice(2), "succeeded")).toEqual({ score: null, passed: null });
  });
});
