import { randomUUID } from "node:crypto";
import { systemClock } from "@/lib/engine/clock";
import { runJob } from "@/lib/engine/driver";
import { MemoryStore } from "@/lib/engine/memory-store";
import type { ModelPort, ToolsPort } from "@/lib/engine/ports";
import type { Logger } from "@/lib/logger";
import type { Workflow } from "@/lib/workflow/schema";
import type { EvaluatorResult, EvaluatorSpec } from "./evaluator-spec";
import { combineResults, evaluateDeterministic, type CellFacts } from "./evaluators";

/**
 * Scoring workflows side by side on a dataset's rows, in memory: each row runs once per workflow
 * through the real engine driver and executors on a `MemoryStore` (nothing is saved, no run appears
 * in the owner's list), with the caller's model and tools ports, and is scored by the evaluators
 * like an experiment's cell. "Simplify this workflow" keeps a merge only when its score stays within
 * a tolerance of the original's (MetaAgent: a merge is kept only when performance holds).
 */

export interface CompareRow {
  inputs: Record<string, unknown>;
  reference: unknown;
}

export interface ComparePorts {
  model: ModelPort;
  tools: ToolsPort;
  logger: Logger;
  /** Scores a judge evaluator (the experiments' judge); without it judge evaluators give no score. */
  judge?: (spec: Extract<EvaluatorSpec, { kind: "judge" }>, facts: CellFacts) => Promise<EvaluatorResult>;
}

/** A workflow's result over the rows: mean score (a run that did not succeed scores 0), model calls and tokens. */
export interface WorkflowScore {
  score: number;
  /** Rows whose run succeeded. */
  succeeded: number;
  rows: number;
  /** Model calls of all rows (one per `tokens_used` event). */
  calls: number;
  tokens: number;
}

/** The default tolerance: a merge is kept while its score is at least the original's minus this. */
export const SIMPLIFY_TOLERANCE = 0.05;
/** How long one row's run may take. */
export const COMPARE_RUN_TIMEOUT_MS = 60_000;

/** The judge's rubric when the original's answers are the references (the experiment form's default). */
export const AGREEMENT_RUBRIC = "Does the answer do what the inputs ask, at least as well as the reference answer?";

/**
 * The evaluators used when none are given: when rows carry references, whether the answer contains
 * its row's reference; when none does, the judge comparing the answer with the original workflow's
 * answer to the same row (which then serves as the reference, so the original scores itself).
 */
export function defaultEvaluators(rows: readonly CompareRow[]): {
  evaluators: EvaluatorSpec[];
  reference: "dataset" | "original";
} {
  const referenced = rows.some((r) => r.reference !== null && r.reference !== undefined);
  return referenced
    ? {
        reference: "dataset",
        evaluators: [{ kind: "contains", name: "contains the reference", weight: 1, threshold: 1, ignoreCase: true }],
      }
    : {
        reference: "original",
        evaluators: [
          {
            kind: "judge",
            name: "as good as the original",
            weight: 1,
            threshold: 0.5,
            rubric: AGREEMENT_RUBRIC,
            scale: { min: 1, max: 5 },
          },
        ],
      };
}

/** One row's run: what the evaluators see, and its model calls. */
interface RowRun {
  facts: CellFacts;
  calls: number;
}

async function runRow(ports: ComparePorts, workflow: Workflow, row: CompareRow, signal?: AbortSignal): Promise<RowRun> {
  const store = new MemoryStore();
  const runId = `compare-${randomUUID()}`;
  const doc: Workflow = {
    ...workflow,
    limits: { ...workflow.limits, runTimeoutMs: Math.min(workflow.limits.runTimeoutMs, COMPARE_RUN_TIMEOUT_MS) },
  };
  store.create(runId, doc, row.inputs);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const started = Date.now();
  try {
    await runJob({ store, model: ports.model, tools: ports.tools, clock: systemClock, logger: ports.logger }, runId, {
      owner: `compare:${runId}`,
      stop: stop.signal,
      stopGraceMs: 1_000,
      settleMs: 1_000,
    });
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  const run = store.run(runId);
  return {
    calls: run.events.filter((e) => e.event.type === "tokens_used").length,
    facts: {
      inputs: row.inputs,
      outputs: run.outputs ?? {},
      reference: row.reference,
      runStatus: run.status,
      latencyMs: Date.now() - started,
      tokens: run.promptTokens + run.completionTokens,
      costUsd: null,
    },
  };
}

/** A run that did not succeed scores 0; one no evaluator applies to scores 1 (it succeeded). */
async function scoreRun(ports: ComparePorts, facts: CellFacts, evaluators: readonly EvaluatorSpec[]): Promise<number> {
  if (facts.runStatus !== "succeeded") return 0;
  const results: EvaluatorResult[] = [];
  for (const spec of evaluators)
    results.push(
      spec.kind !== "judge"
        ? evaluateDeterministic(spec, facts)
        : ports.judge
          ? await ports.judge(spec, facts)
          : { name: spec.name, kind: "judge", score: null, passed: null, detail: "no judge" },
    );
  return combineResults(evaluators, results, facts.runStatus).score ?? 1;
}

async function runAll(ports: ComparePorts, workflow: Workflow, rows: readonly CompareRow[], signal?: AbortSignal) {
  const runs: RowRun[] = [];
  for (const row of rows) {
    if (signal?.aborted) throw signal.reason ?? new Error("aborted");
    runs.push(await runRow(ports, workflow, row, signal));
  }
  return runs;
}

async function summarise(ports: ComparePorts, runs: readonly RowRun[], evaluators: readonly EvaluatorSpec[]) {
  let sum = 0;
  for (const r of runs) sum += await scoreRun(ports, r.facts, evaluators);
  return {
    score: runs.length ? Math.round((sum / runs.length) * 1000) / 1000 : 0,
    succeeded: runs.filter((r) => r.facts.runStatus === "succeeded").length,
    rows: runs.length,
    calls: runs.reduce((n, r) => n + r.calls, 0),
    tokens: runs.reduce((n, r) => n + r.facts.tokens, 0),
  } satisfies WorkflowScore;
}

/** Kept when the candidate's score is at least the original's minus `tolerance`; the reason says why. */
export function gateVerdict(
  original: WorkflowScore,
  candidate: WorkflowScore,
  tolerance: number,
): { kept: boolean; reason: string } {
  const drop = Math.round((original.score - candidate.score) * 1000) / 1000;
  if (drop <= tolerance + 1e-9)
    return {
      kept: true,
      reason: `score ${candidate.score} vs the original's ${original.score} (within ${tolerance})`,
    };
  const failed = candidate.rows - candidate.succeeded;
  return {
    kept: false,
    reason: `score fell from ${original.score} to ${candidate.score} (more than ${tolerance})${failed ? `; ${failed} of ${candidate.rows} runs did not succeed` : ""}`,
  };
}

export interface Comparison {
  evaluators: EvaluatorSpec[];
  /** Where the references came from: the dataset's rows, or the original workflow's answers. */
  reference: "dataset" | "original";
  tolerance: number;
  original: WorkflowScore;
  candidates: { id: string; score: WorkflowScore; kept: boolean; reason: string }[];
}

/**
 * The evaluation gate: the original and every candidate run over the rows (one run at a time) and
 * are scored alike; a candidate is kept when its score stays within `tolerance` of the original's.
 * Without `evaluators`, `defaultEvaluators` decide (and, for rows without references, the original's
 * answers become the references).
 */
export async function compareWorkflows(
  ports: ComparePorts,
  original: Workflow,
  candidates: readonly { id: string; workflow: Workflow }[],
  rows: readonly CompareRow[],
  options: { evaluators?: EvaluatorSpec[]; tolerance?: number; signal?: AbortSignal } = {},
): Promise<Comparison> {
  const tolerance = options.tolerance ?? SIMPLIFY_TOLERANCE;
  const chosen = options.evaluators
    ? { evaluators: options.evaluators, reference: "dataset" as const }
    : defaultEvaluators(rows);
  const originalRuns = await runAll(ports, original, rows, options.signal);
  const scoredRows =
    chosen.reference === "original" ? rows.map((r, i) => ({ ...r, reference: originalRuns[i]!.facts.outputs })) : rows;
  if (chosen.reference === "original") originalRuns.forEach((r, i) => (r.facts.reference = scoredRows[i]!.reference));
  const originalScore = await summarise(ports, originalRuns, chosen.evaluators);
  const out: Comparison = { ...chosen, tolerance, original: originalScore, candidates: [] };
  for (const c of candidates) {
    const runs = await runAll(ports, c.workflow, scoredRows, options.signal);
    const score = await summarise(ports, runs, chosen.evaluators);
    out.candidates.push({ id: c.id, score, ...gateVerdict(originalScore, score, tolerance) });
  }
  return out;
}
