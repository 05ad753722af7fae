import { deepEqual } from "@/lib/workflow/equal";
import { stepInputSchema, type PlannerState, type StepInput } from "./state";
import type { ReusedStep, RunSeed } from "./seed";
import type { Ctx } from "./types";

/**
 * Reusing another run's step results (retry from the failed step, fork from a step). A seeded run
 * plans like any run, but a step whose result its seed holds is not executed: its start is answered
 * with the recorded output and branch (committed together, like an instant step), so no model is
 * called and no side effect made again. A result is reused only while it would be the same:
 * - the seed has the step (node and iteration) and the step starts with the same input (the edges
 *   that delivered, the loop edge and its feedback), and
 * - no node it may read from (upstream of it, over any edge) produced its output in this run:
 *   once a node runs again, everything downstream of it runs too.
 * A fork's edited step (`edited`) is reused whatever its input, and counts as produced in this run
 * (its output is new), so what depends on it runs again.
 */

export const seedKey = (nodeId: string, iteration: number): string => `${nodeId}#${iteration}`;

/** The inputs of two steps deliver the same: edges, loop edge and feedback (how effect keys are formed aside). */
function sameInput(recorded: unknown, now: StepInput): boolean {
  const was = stepInputSchema.safeParse(recorded ?? { via: [] });
  if (!was.success) return false;
  const a = was.data;
  return (
    deepEqual([...a.via].sort(), [...now.via].sort()) &&
    a.loopEdge === now.loopEdge &&
    deepEqual(a.feedback ?? null, now.feedback ?? null)
  );
}

/**
 * The recorded result startNode may answer this step with, or undefined (it runs). Records in the
 * state which nodes produced their output in this run (`fresh`), which is what later decisions read.
 */
export function reuseFor(ctx: Ctx, nodeId: string, iteration: number, input: StepInput): ReusedStep | undefined {
  const seed = ctx.seed;
  if (!seed) return undefined;
  const entry = seed.steps[seedKey(nodeId, iteration)];
  const fresh = freshNodes(ctx.state);
  const reusable =
    entry !== undefined &&
    (entry.edited === true ||
      (sameInput(entry.input, input) && ![...ctx.g.upstream(nodeId)].some((id) => fresh.has(id))));
  if (!reusable || entry.edited) ctx.state.fresh = [...fresh, nodeId].filter((id, i, all) => all.indexOf(id) === i);
  return reusable ? entry : undefined;
}

const freshNodes = (state: PlannerState): Set<string> => new Set(state.fresh ?? []);

/** A step of the run a seed is made from, as its Step row holds it. */
export interface SeedSource {
  nodeId: string;
  iteration: number;
  status: string;
  input: unknown;
  output: unknown;
  branch: string | null;
}

/** A fork's edit: the step whose value it replaces (its output, and the outcome it follows). */
export interface SeedEdit {
  nodeId: string;
  iteration: number;
  output: unknown;
  branch: string | null;
}

/** Whether a recorded step has a result to reuse: it succeeded, or it failed and took its error branch. */
export const hasReusableResult = (s: Pick<SeedSource, "status" | "branch">): boolean =>
  s.status === "succeeded" || ((s.status === "failed" || s.status === "timed_out") && s.branch !== null);

/**
 * The seed of a retry or fork of run `runId`: every step of it with a result to reuse, except the
 * nodes in `except` (changed since, in the version the new run runs), and the fork's `edit`.
 */
export function seedFromSteps(
  runId: string,
  steps: readonly SeedSource[],
  options: { except?: ReadonlySet<string>; edit?: SeedEdit } = {},
): RunSeed {
  const seed: RunSeed = { runId, steps: {} };
  for (const s of steps) {
    if (!hasReusableResult(s) || options.except?.has(s.nodeId)) continue;
    seed.steps[seedKey(s.nodeId, s.iteration)] = { output: s.output, branch: s.branch, input: s.input ?? undefined };
  }
  const edit = options.edit;
  if (edit) {
    const source = steps.find((s) => s.nodeId === edit.nodeId && s.iteration === edit.iteration);
    seed.steps[seedKey(edit.nodeId, edit.iteration)] = {
      output: edit.output,
      branch: edit.branch,
      input: source?.input ?? undefined,
      edited: true,
    };
  }
  return seed;
}
