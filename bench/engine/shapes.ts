/**
 * The four B1 shapes (docs/benchmarks.md), described once so both arms build the same graph:
 * (a) a chain of 20 agent steps, (b) fan-out 1→8 + a join, (c) a generator/evaluator loop of 5
 * iterations, (d) a map over 20 trivial items, 5 at a time (LangGraph: a `Send` per item, maxConcurrency 5).
 */
export type ShapeName = "chain20" | "fanout8" | "loop5" | "map20";

export interface Shape {
  name: ShapeName;
  /** Steps one run executes (node executions), used for ms/step. */
  steps: number;
  description: string;
}

export const SHAPES: Record<ShapeName, Shape> = {
  chain20: { name: "chain20", steps: 20, description: "chain of 20 agent steps" },
  fanout8: { name: "fanout8", steps: 10, description: "split → 8 parallel agents → join" },
  loop5: { name: "loop5", steps: 10, description: "generator ⇄ evaluator, 5 iterations" },
  map20: { name: "map20", steps: 20, description: "map over 20 items, 5 at a time" },
};

/** Items of the map shape, and how many run at once. */
export const MAP_ITEMS = 20;
export const MAP_CONCURRENCY = 5;

/** Iterations of the loop shape: the evaluator approves on the 5th visit. */
export const LOOP_ITERATIONS = 5;
