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
  /** A retry's or fork's source run, and a fork's step; how many retries and forks were made of this run. */
  sourceRunId: string | null;
  sourceNodeId: string | null;
  derivedCount: number;
}

/** A run in a lineage (its source chain, or the runs derived from it). */
export interface LineageRunView {
  id: string;
  trigger: RunTrigger;
  status: string;
  createdAt: string;
  /** A fork: the step it forked at. */
  forkedAt: { nodeId: string; iteration: number } | null;
}

/**
 * Owner view: where a run sits among its retries and forks. `chain` runs from the original to this
 * run's source (empty for an original); `derived` holds the retries and forks made of this run.
 */
export interface RunLineageView {
  chain: LineageRunView[];
  forkedAt: { nodeId: string; iteration: number } | null;
  derived: LineageRunView[];
}

type Dated<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? Date | null : Date };

/** The Step row columns a StepView is built from (dates as the database gives them). */
export type StepRowLike = Dated<Omit<StepView, "input" | "output">, "startedAt" | "finishedAt">;

/** The Run row columns a RunInfoView is built from. */
export type RunRowLike = Dated<
  Omit<RunInfoView, "inputs" | "outputs" | "triggerLabel">,
  "createdAt" | "startedAt" | "finishedAt"
>;

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

/** One side of a step in a comparison of two runs. */
export interface ComparedStepView {
  status: string;
  output: unknown;
  error: string | null;
  branch: string | null;
  /** Tries it took (error-policy retries and re-dispatches included). */
  attempts: number;
  /** Answered from the run it derives from (a retry's or fork's), and whether a fork edited it. */
  reused: boolean;
  edited: boolean;
  tokens: number;
  latencyMs: number | null;
  /** What the step was started with (the edges that delivered data), for the input diff. */
  input?: unknown;
}

/** One step (node × iteration) of two runs side by side; `verdict` compares status, outcome and output. */
export interface ComparisonRowView {
  key: string;
  nodeId: string;
  iteration: number;
  left: ComparedStepView | null;
  right: ComparedStepView | null;
  verdict: "same" | "changed" | "only_left" | "only_right";
}

/** A run as a comparison heads its column. */
export interface ComparedRunView {
  id: string;
  workflowName: string;
  version: number;
  status: string;
  trigger: RunTrigger;
  createdAt: string;
  outputs: unknown;
  /** From its start to its end (or now), null before it started. */
  durationMs: number | null;
  tokens: number;
  /** Estimated from the owner's price table; null when no model used has a price. */
  costUsd: number | null;
}

/** Two of the owner's runs side by side, step by step (a run and its retry or fork, or any two runs). */
export interface RunComparisonView {
  left: ComparedRunView;
  right: ComparedRunView;
  rows: ComparisonRowView[];
  /** Node names of both runs' documents, by id. */
  nodeNames: Record<string, string>;
}
