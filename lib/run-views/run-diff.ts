import { deepEqual } from "@/lib/workflow/equal";
import type { ComparedStepView, ComparisonRowView } from "./dto";

/** A step as a comparison needs it (a Step row's fields). */
export interface DiffStep {
  nodeId: string;
  iteration: number;
  attempt: number;
  status: string;
  output: unknown;
  error: string | null;
  branch: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number | null;
  startedAt: Date | string | null;
  input?: unknown;
}

/** Steps of a run answered from its source (key `${nodeId}#${iteration}` → edited by a fork). */
export type ReusedSteps = ReadonlyMap<string, boolean>;

const keyOf = (s: { nodeId: string; iteration: number }) => `${s.nodeId}#${s.iteration}`;
const when = (s: DiffStep) => (s.startedAt ? new Date(s.startedAt).getTime() : Number.POSITIVE_INFINITY);

function side(s: DiffStep, reused: ReusedSteps): ComparedStepView {
  const key = keyOf(s);
  return {
    status: s.status,
    output: s.output,
    error: s.error,
    branch: s.branch,
    attempts: s.attempt,
    reused: reused.has(key),
    edited: reused.get(key) === true,
    tokens: s.promptTokens + s.completionTokens,
    latencyMs: s.latencyMs,
    ...(s.input !== undefined && s.input !== null ? { input: s.input } : {}),
  };
}

/**
 * Two runs' steps side by side, one row per node and iteration: the left run's steps in start order
 * (steps started together in the order of `nodeOrder`, the document's), then the steps only the
 * right run has, in theirs. A row is `same` when both sides ended alike (same status, outcome and
 * output), `changed` otherwise, or only on one side.
 */
export function diffRuns(
  left: readonly DiffStep[],
  right: readonly DiffStep[],
  reused: { left?: ReusedSteps; right?: ReusedSteps } = {},
  nodeOrder: readonly string[] = [],
): ComparisonRowView[] {
  const rank = (s: DiffStep) => (nodeOrder.includes(s.nodeId) ? nodeOrder.indexOf(s.nodeId) : nodeOrder.length);
  const byKey = (steps: readonly DiffStep[]) =>
    new Map(
      [...steps]
        .sort((a, b) => when(a) - when(b) || rank(a) - rank(b) || a.iteration - b.iteration)
        .map((s) => [keyOf(s), s]),
    );
  const l = byKey(left);
  const r = byKey(right);
  const keys = [...l.keys(), ...[...r.keys()].filter((k) => !l.has(k))];
  return keys.map((key) => {
    const a = l.get(key);
    const b = r.get(key);
    const step = (a ?? b)!;
    const verdict = !a
      ? "only_right"
      : !b
        ? "only_left"
        : a.status === b.status && a.branch === b.branch && deepEqual(a.output, b.output)
          ? "same"
          : "changed";
    return {
      key,
      nodeId: step.nodeId,
      iteration: step.iteration,
      verdict,
      left: a ? side(a, reused.left ?? new Map()) : null,
      right: b ? side(b, reused.right ?? new Map()) : null,
    };
  });
}
