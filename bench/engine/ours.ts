import type { z } from "zod";
import type { ruleSchema } from "@/lib/llm/scripted/fixture";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { LOOP_ITERATIONS, MAP_CONCURRENCY, MAP_ITEMS, type ShapeName } from "./shapes";

/**
 * B1 "ours" arm: the three shapes as Weft workflows (same node count as the LangGraph graphs; our
 * start/end nodes are extra, ms/step divides by the shape's step count in both arms), and the
 * scripted-model rules answering them instantly (zero delay).
 */
const agent = (id: string, task = id) => ({ id, type: "agent" as const, agent: "a", task });
const fwd = (source: string, target: string, handle = "done") => ({
  id: `${source}-${target}`,
  source,
  sourceHandle: handle,
  target,
});
const base = {
  agents: [
    { key: "a", name: "A", instructions: "[[b1]] Step.", model: { model: "scripted-demo" } },
    { key: "ev", name: "Ev", instructions: "[[b1-eval]] Judge.", model: { model: "scripted-demo" } },
  ],
};

/** The Weft document of a shape. */
export function ourWorkflow(shape: ShapeName): WorkflowInput {
  switch (shape) {
    case "chain20": {
      const ids = Array.from({ length: 20 }, (_, i) => `n${i + 1}`);
      return {
        ...base,
        name: "B1 chain20",
        nodes: [{ id: "start", type: "start" }, ...ids.map((i) => agent(i)), { id: "end", type: "end" }],
        edges: [fwd("start", "n1", "next"), ...ids.slice(1).map((id, i) => fwd(ids[i]!, id)), fwd("n20", "end")],
      };
    }
    case "fanout8": {
      const ws = Array.from({ length: 8 }, (_, i) => `w${i + 1}`);
      return {
        ...base,
        name: "B1 fanout8",
        nodes: [
          { id: "start", type: "start" },
          agent("split"),
          ...ws.map((w) => agent(w)),
          { ...agent("join"), join: "all" as const },
          { id: "end", type: "end" },
        ],
        edges: [
          fwd("start", "split", "next"),
          ...ws.map((w) => fwd("split", w)),
          ...ws.map((w) => fwd(w, "join")),
          fwd("join", "end"),
        ],
      };
    }
    case "map20":
      // the items are written out (a JSON list): no upstream step, so both arms run exactly the 20 item steps
      return {
        ...base,
        name: "B1 map20",
        nodes: [
          { id: "start", type: "start" },
          {
            id: "each",
            type: "map",
            items: JSON.stringify(Array.from({ length: MAP_ITEMS }, (_, i) => `item ${i + 1}`)),
            body: { type: "agent", agent: "a", task: "{{item}}" },
            concurrency: MAP_CONCURRENCY,
          },
          { id: "end", type: "end" },
        ],
        edges: [fwd("start", "each", "next"), fwd("each", "end")],
      };
    case "loop5":
      return {
        ...base,
        name: "B1 loop5",
        limits: { maxSteps: 100, maxIterationsPerLoop: LOOP_ITERATIONS, runTimeoutMs: 60_000, maxTurnsPerVisit: 8 },
        nodes: [
          { id: "start", type: "start" },
          agent("generate"),
          {
            id: "evaluate",
            type: "router",
            mode: "llm",
            prompt: "Judge {{nodes.generate.output}}",
            branches: [
              { id: "approved", label: "Approved", condition: "good" },
              { id: "revise", label: "Revise", condition: "not yet" },
            ],
          },
          { id: "end", type: "end" },
        ],
        edges: [
          fwd("start", "generate", "next"),
          fwd("generate", "evaluate"),
          fwd("evaluate", "end", "approved"),
          {
            ...fwd("evaluate", "generate", "revise"),
            id: "loop",
            kind: "loop" as const,
            maxIterations: LOOP_ITERATIONS,
            onExhausted: "continue" as const,
            continueWith: "approved",
          },
        ],
      };
  }
}

/** Scripted rules: every agent step answers at once; the loop's router says revise 4×, then approved (cycling per run). */
export const ourRules: z.input<typeof ruleSchema>[] = [
  {
    id: "b1-eval",
    match: { schema: "choose_branch" },
    then: "cycle",
    sequence: [
      ...Array.from({ length: LOOP_ITERATIONS - 1 }, () => ({ json: { branch: "revise" } })),
      { json: { branch: "approved" } },
    ],
  },
  { id: "b1", match: {}, priority: -1, reply: { text: "ok" } },
];
