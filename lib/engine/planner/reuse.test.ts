import { describe, expect, it } from "vitest";
import { articleWriter } from "../testing/scenarios";
import { countSteps, simulate, type SimOutcome, type SimResult } from "../testing/simulate";
import { seedFromSteps, type SeedSource } from "./reuse";

/** The steps of a simulated run as their rows would hold them (input from the start, the rest from the finish). */
function rows(r: SimResult): SeedSource[] {
  return r.steps.map((s) => {
    const done = r.events.findLast(
      (e) => e.type === "step_finished" && e.nodeId === s.nodeId && e.iteration === s.iteration,
    );
    const f = done?.type === "step_finished" ? done : undefined;
    return {
      nodeId: s.nodeId,
      iteration: s.iteration,
      status: f?.status ?? "running",
      input: s.input,
      output: f?.output ?? null,
      branch: f?.branch ?? null,
    };
  });
}

/** Scenario A: the evaluator asks for one revision; `outlineFails` makes the second outline fail. */
const writer =
  (outlineFails: boolean) =>
  (s: { nodeId: string; iteration: number }): SimOutcome => {
    if (s.nodeId === "evaluator")
      return { branch: s.iteration === 1 ? "revise" : "approved", output: `verdict ${s.iteration}` };
    if (s.nodeId === "outline" && s.iteration === 2 && outlineFails) return { fail: "model down" };
    return {};
  };

describe("reuse (planner): retry and fork through a loop", () => {
  it("a retry reuses the loop's first pass and the feedback it carried, and runs from the failed outline on", () => {
    const original = simulate(articleWriter(), writer(true));
    expect(original.finish).toMatchObject({ status: "failed" });
    const seed = seedFromSteps("orig", rows(original));
    const retry = simulate(articleWriter(), writer(false), undefined, null, { seed });
    expect(retry.finish).toMatchObject({ status: "succeeded" });
    // the steps given to the behaviour are the ones that ran; the reused ones were answered from the seed
    const ran = retry.steps.filter((s) => !s.reuse).map((s) => `${s.nodeId}#${s.iteration}`);
    expect(ran).toEqual(["outline#2", "evaluator#2", "writer#1", "end#1"]);
    expect(countSteps(retry.steps)).toEqual({ start: 1, researcher: 1, outline: 2, evaluator: 2, writer: 1, end: 1 });
    expect(retry.state.fresh).toEqual(["outline", "evaluator", "writer", "end"]);
  });

  it("a fork at the first verdict with another branch skips the revision: what depends on the edit runs again", () => {
    const original = simulate(articleWriter(), writer(false));
    const seed = seedFromSteps("orig", rows(original), {
      edit: { nodeId: "evaluator", iteration: 1, output: "fine as is", branch: "approved" },
    });
    const fork = simulate(articleWriter(), writer(false), undefined, null, { seed });
    expect(fork.finish).toMatchObject({ status: "succeeded" });
    expect(fork.steps.filter((s) => !s.reuse).map((s) => `${s.nodeId}#${s.iteration}`)).toEqual(["writer#1", "end#1"]);
    expect(fork.events.find((e) => e.type === "branch_taken" && e.nodeId === "evaluator")).toMatchObject({
      branch: "approved",
    });
  });

  it("a step downstream of one that ran again is never reused, even with a recorded result", () => {
    const original = simulate(articleWriter(), writer(false));
    const seed = seedFromSteps("orig", rows(original), { except: new Set(["researcher"]) });
    const retry = simulate(articleWriter(), writer(false), undefined, null, { seed });
    expect(retry.steps.filter((s) => s.reuse).map((s) => s.nodeId)).toEqual(["start"]);
  });
});
