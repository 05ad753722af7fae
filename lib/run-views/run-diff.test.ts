import { describe, expect, it } from "vitest";
import { diffRuns, type DiffStep } from "./run-diff";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const step = (nodeId: string, started: number, extra: Partial<DiffStep> = {}): DiffStep => ({
  nodeId,
  iteration: 1,
  attempt: 1,
  status: "succeeded",
  output: `${nodeId} out`,
  error: null,
  branch: "done",
  promptTokens: 3,
  completionTokens: 2,
  latencyMs: 10,
  startedAt: at(started),
  ...extra,
});

describe("diffRuns", () => {
  it("lines up a failed run and its retry step by step: reused steps, the step that failed and then ran, the step only the retry reached", () => {
    const failed = [
      step("s1", 1),
      step("s2", 2),
      step("s5", 3, { status: "failed", output: null, error: "400", branch: null }),
    ];
    const retry = [
      step("s1", 10, { promptTokens: 0, completionTokens: 0 }),
      step("s2", 11),
      step("s5", 12, { output: "s5 fixed", attempt: 2 }),
      step("s6", 13),
    ];
    const rows = diffRuns(failed, retry, {
      right: new Map([
        ["s1#1", false],
        ["s2#1", false],
      ]),
    });
    expect(rows.map((r) => [r.key, r.verdict])).toEqual([
      ["s1#1", "same"],
      ["s2#1", "same"],
      ["s5#1", "changed"],
      ["s6#1", "only_right"],
    ]);
    expect(rows[0]?.right).toMatchObject({ reused: true, edited: false, tokens: 0 });
    expect(rows[2]?.right).toMatchObject({ attempts: 2, output: "s5 fixed", reused: false });
    expect(rows[2]?.left).toMatchObject({ status: "failed", error: "400" });
    expect(rows[3]?.left).toBeNull();
  });

  it("marks a fork's edited step and a different outcome as changed, and steps only the left run has", () => {
    const original = [step("judge", 1, { branch: "good" }), step("ship", 2)];
    const fork = [step("judge", 5, { branch: "bad" }), step("fix", 6)];
    const rows = diffRuns(original, fork, { right: new Map([["judge#1", true]]) });
    expect(rows.map((r) => [r.key, r.verdict])).toEqual([
      ["judge#1", "changed"],
      ["ship#1", "only_left"],
      ["fix#1", "only_right"],
    ]);
    expect(rows[0]?.right).toMatchObject({ reused: true, edited: true, branch: "bad" });
  });

  it("keeps loop iterations apart and orders by start time, then by the document's node order", () => {
    const a = [step("outline", 2, { iteration: 2 }), step("outline", 1)];
    expect(diffRuns(a, a).map((r) => r.key)).toEqual(["outline#1", "outline#2"]);
    const together = [step("first", 1), step("start", 1)];
    expect(diffRuns(together, together, {}, ["start", "first"]).map((r) => r.key)).toEqual(["start#1", "first#1"]);
  });
});
