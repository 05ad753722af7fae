import { describe, expect, it } from "vitest";
import { validate } from "@/lib/workflow/validate";
import type { DesignerEvent } from "./events";
import { bases } from "./fixtures/bases";
import { CORPUS_CONTEXT } from "./fixtures/corpus";
import { json } from "./fixtures/helpers";
import { design } from "./pipeline";
import { replayModel } from "./replay";
import type { DesignAnswer } from "./schemas";

/**
 * Never a crash, never an invalid graph: 200 randomly damaged answers (seeded) each end in `done`
 * with a workflow that validates, or in `failed` with issues.
 */

function prng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const KINDS = [
  "agent",
  "router",
  "tool",
  "end",
  "start",
  "abort",
  "orchestrator",
  "evaluator",
  "webhook",
  "finish",
  "",
];

function damage(answer: DesignAnswer, rand: () => number): DesignAnswer {
  const a = structuredClone(answer);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const ids = () => [...a.design.nodes.map((n) => n.id), "ghost", "End", "1 bad id"];
  for (let k = 0, n = 1 + Math.floor(rand() * 3); k < n; k++) {
    const node = pick(a.design.nodes);
    const edge = pick(a.design.edges);
    switch (Math.floor(rand() * 9)) {
      case 0:
        if (node) node.kind = pick(KINDS)!;
        break;
      case 1:
        a.design.edges.splice(Math.floor(rand() * a.design.edges.length), 1);
        break;
      case 2:
        a.design.edges.push({ from: pick(ids())!, to: pick(ids())!, ...(rand() < 0.5 ? { loop: true } : {}) });
        break;
      case 3:
        if (edge) {
          delete edge.maxIterations;
          edge.loop = !edge.loop;
        }
        break;
      case 4:
        if (node?.branches?.length) node.branches.push({ id: node.branches[0]!.id });
        break;
      case 5:
        if (node) node.id = `${node.id} x`;
        break;
      case 6:
        a.profile.agents.pop();
        break;
      case 7:
        if (node) node.task = `Use {{nodes.${pick(ids())}.output}} and {{inputs.nothing}}`;
        break;
      case 8:
        a.design.nodes.splice(Math.floor(rand() * a.design.nodes.length), 1);
        break;
    }
  }
  return a;
}

describe("designer robustness", () => {
  it("ends every damaged answer in a valid proposal or a list of issues", async () => {
    const rand = prng(42);
    const all = Object.values(bases);
    const outcomes = { done: 0, failed: 0 };
    for (let i = 0; i < 200; i++) {
      const damaged = damage(all[i % all.length]!, rand);
      let last: DesignerEvent | undefined;
      for await (const e of design(
        { message: `fuzz ${i}` },
        { model: replayModel([json(damaged)]), context: CORPUS_CONTEXT },
      ))
        last = e;
      expect(last && (last.type === "done" || last.type === "failed")).toBe(true);
      if (last?.type === "done") {
        const errors = validate(last.result.workflow, { tools: CORPUS_CONTEXT.tools.map((t) => t.name) }).filter(
          (x) => x.severity === "error" && x.code !== "tool_placeholder",
        );
        expect(errors, `case ${i}`).toEqual([]);
        outcomes.done++;
      } else if (last?.type === "failed") {
        expect(last.issues.length, `case ${i}`).toBeGreaterThan(0);
        outcomes.failed++;
      }
    }
    expect(outcomes.done).toBeGreaterThan(0);
    expect(outcomes.failed).toBeGreaterThan(0);
  }, 120_000);
});
