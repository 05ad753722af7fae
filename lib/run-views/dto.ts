/**
 * The run shapes that cross the server/client line: built on the server (the run page, the /runs
 * feed, the share DTO) and rendered by components/runs. Client-safe (it imports only lib/workflow), so
 * components may import it (eslint zone). Dates are ISO strings: they travel as JSON or React props.
 */
import type { RunTrigger } from "@/lib/workflow/runs";

/** A step as the run dashboard first renders it; live changes come from the event stream. */
export interface StepView {
  nodeId: string;
  iteration: number;
  attempt: number;
  status: string;
  branch: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number | null;
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** Owner view only: what the step was started with (the edges that delivered data, loop feedback). */
  input?: unknown;
  /** Owner view, and share links that include content. */
  output?: unknown;
}

/** The run header as the run dashboard first renders it. */
export interface RunInfoView {
  id: string;
  status: string;
  reason: string | null;
  workflowName: string;
  version: number;
  promptTokens: number;
  completionTokens: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  trigger: RunTrigger;
  /** Owner view only: which token, schedule, webhook, tool or run started it. */
  triggerLabel?: string | null;
  /** Owner view, and share links that include content. */
  inputs?: unknown;
  outputs?: unknown;
}

/** One row of the /runs page (GET /runs/feed): the summary plus duration and estimated cost (null = no price known). */
export interface RunRow {
  id: string;
  status: string;
  reason: string | null;
  workflowId: string;
  workflowName: string;
  version: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  trigger: RunTrigger;
  triggerLabel: string | null;
  stepCount: number;
  tokens: number;
  costUsd: number | null;
}

type Dated<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? Date | null : Date };

/** The Step row columns a StepView is built from (dates as the database gives them). */
export type StepRowLike = Dated<Omit<StepView, "input" | "output">, "startedAt" | "finishedAt">;

/** The Run row columns a RunInfoView is built from. */
export type RunRowLike = Dated<Omit<RunInfoView, "inputs" | "outputs" | "triggerLabel">, "createdAt" | "startedAt" | "finishedAt">;

/** A date as an ISO string; null stays null. */
export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * A step's view WITHOUT content (no input/output), built field by field, never by spreading the row,
 * so a column added later reaches no client until it is named here. Callers add the content they may show.
 */
export function stepView(s: StepRowLike): StepView {
  return {
    nodeId: s.nodeId,
    iteration: s.iteration,
    attempt: s.attempt,
    status: s.status,
    branch: s.branch,
    promptTokens: s.promptTokens,
    completionTokens: s.completionTokens,
    latencyMs: s.latencyMs,
    error: s.error,
    startedAt: iso(s.startedAt),
    finishedAt: iso(s.finishedAt),
  };
}

/** A run header WITHOUT content (no inputs/outputs, no trigger label), built field by field like stepView. */
export function runInfoView(r: RunRowLike): RunInfoView {
  return {
    id: r.id,
    status: r.status,
    reason: r.reason,
    workflowName: r.workflowName,
    version: r.version,
    promptTokens: r.promptTokens,
    completionTokens: r.completionTokens,
    createdAt: r.createdAt.toISOString(),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    trigger: r.trigger,
  };
}
