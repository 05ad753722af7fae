import { issue, q, type ValidationIssue } from "./issues";
import type { Workflow } from "./schema";

/**
 * The server's ceilings on the limits a workflow sets (lib/env.ts `runLimitCeilings`, from
 * WEFT_MAX_RUN_STEPS, WEFT_MAX_LOOP_ITERATIONS, WEFT_MAX_RUN_TIMEOUT_MS, WEFT_MAX_TURNS_PER_VISIT):
 * a workflow may ask for less, never for more, so no one user's run can hold a worker for ever.
 */
export interface RunLimitCeilings {
  /** Most steps a run may take (limits.maxSteps). */
  maxSteps: number;
  /** Most iterations of any loop (limits.maxIterationsPerLoop and every loop edge's maxIterations). */
  maxIterations: number;
  /** Longest run (limits.runTimeoutMs) and longest step (a node's timeoutMs, human reviews and subflows aside: they wait without a worker). */
  runTimeoutMs: number;
  /** Most model calls in one visit of an agent (limits.maxTurnsPerVisit and an agent node's own). */
  maxTurnsPerVisit: number;
}

/** The ceilings when the operator sets none. */
export const DEFAULT_RUN_LIMIT_CEILINGS: RunLimitCeilings = {
  maxSteps: 1000,
  maxIterations: 100,
  runTimeoutMs: 6 * 3_600_000,
  maxTurnsPerVisit: 50,
};

const SETTING: Record<keyof RunLimitCeilings, string> = {
  maxSteps: "WEFT_MAX_RUN_STEPS",
  maxIterations: "WEFT_MAX_LOOP_ITERATIONS",
  runTimeoutMs: "WEFT_MAX_RUN_TIMEOUT_MS",
  maxTurnsPerVisit: "WEFT_MAX_TURNS_PER_VISIT",
};

const over = (what: string, value: number, ceiling: keyof RunLimitCeilings, c: RunLimitCeilings) =>
  `${what} is ${value}; this server allows at most ${c[ceiling]} (${SETTING[ceiling]}).`;

/** Every limit of `doc` above the ceilings, one error issue each (code limit_above_ceiling). */
export function checkLimitCeilings(doc: Workflow, c: RunLimitCeilings): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const flag = (
    value: number | undefined,
    ceiling: keyof RunLimitCeilings,
    what: string,
    at: Parameters<typeof issue>[2] = {},
  ) => {
    if (value !== undefined && value > c[ceiling])
      issues.push(issue("limit_above_ceiling", over(what, value, ceiling, c), at));
  };
  const l = doc.limits;
  flag(l.maxSteps, "maxSteps", "limits.maxSteps", { field: "limits.maxSteps" });
  flag(l.maxIterationsPerLoop, "maxIterations", "limits.maxIterationsPerLoop", {
    field: "limits.maxIterationsPerLoop",
  });
  flag(l.runTimeoutMs, "runTimeoutMs", "limits.runTimeoutMs", { field: "limits.runTimeoutMs" });
  flag(l.maxTurnsPerVisit, "maxTurnsPerVisit", "limits.maxTurnsPerVisit", { field: "limits.maxTurnsPerVisit" });
  for (const e of doc.edges)
    flag(e.maxIterations, "maxIterations", `The maxIterations of loop edge ${q(e.id)}`, { edgeId: e.id });
  for (const n of doc.nodes) {
    if (n.type !== "human" && n.type !== "subflow")
      flag(n.timeoutMs, "runTimeoutMs", `The timeoutMs of node ${q(n.id)}`, { nodeId: n.id });
    if (n.type === "agent")
      flag(n.maxTurnsPerVisit, "maxTurnsPerVisit", `The maxTurnsPerVisit of node ${q(n.id)}`, { nodeId: n.id });
  }
  return issues;
}
