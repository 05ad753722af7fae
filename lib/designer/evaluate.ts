import * as z from "zod";
import { CORPUS_CONTEXT, baseWorkflow, corpus, type CorpusEntry } from "./fixtures/corpus";
import type { DesignerModel, StructuredRequest } from "./model";
import { design } from "./pipeline";
import { matchStructure, structureOf } from "./structure";

/**
 * The designer evaluation: the corpus requests (new workflows and edits, each with its golden
 * structure) run through the designer on one model, in the corpus's context (three registered tools),
 * one after another. Per request: valid, golden-structure match, model calls, tokens, time, the
 * structured-output path used, local fixes, the issues left. Run it on your own provider (the
 * Settings page or `npm run designer-eval`) to learn the designer's real quality on that model.
 */

export const evaluationRowSchema = z.object({
  id: z.string(),
  request: z.string(),
  kind: z.enum(["new", "edit"]),
  valid: z.boolean(),
  match: z.boolean(),
  calls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  ms: z.number(),
  paths: z.array(z.string()),
  fixes: z.number().int(),
  issues: z.array(z.string()),
  error: z.string().optional(),
});
export type EvaluationRow = z.infer<typeof evaluationRowSchema>;

export const evaluationSummarySchema = z.object({
  requests: z.number().int(),
  validShare: z.number(),
  goldenMatchShare: z.number(),
  callsPerRequest: z.number(),
  promptTokensPerRequest: z.number(),
  completionTokensPerRequest: z.number(),
  msPerRequest: z.number(),
  msP95: z.number(),
  /** Calls per structured-output path. */
  paths: z.record(z.string(), z.number()),
});
export type EvaluationSummary = z.infer<typeof evaluationSummarySchema>;

/** The evaluation's requests: the corpus (ids may narrow it to some). */
export function evaluationEntries(ids?: readonly string[]): readonly CorpusEntry[] {
  return ids?.length ? corpus.filter((e) => ids.includes(e.id)) : corpus;
}

/** The model, noting the structured-output path each call used (llm.ts reports it as `method`). */
function noting(model: DesignerModel, paths: string[]): DesignerModel {
  return {
    async structured(request: StructuredRequest) {
      const result = await model.structured(request);
      paths.push(result.method ?? "replay");
      return result;
    },
  };
}

/** One request through the designer: never throws (a transport failure is the row's error). */
export async function evaluateEntry(
  entry: CorpusEntry,
  model: DesignerModel,
  signal?: AbortSignal,
): Promise<EvaluationRow> {
  const paths: string[] = [];
  const started = performance.now();
  const request = { message: entry.request, ...(entry.base ? { workflow: baseWorkflow(entry.base) } : {}) };
  let last;
  for await (const event of design(request, { model: noting(model, paths), context: CORPUS_CONTEXT, signal }))
    last = event;
  const ms = Math.round(performance.now() - started);
  const base = {
    id: entry.id,
    request: entry.request,
    kind: entry.base ? ("edit" as const) : ("new" as const),
    ms,
    paths,
  };
  if (last?.type === "done") {
    const { calls, promptTokens, completionTokens } = last.result.usage;
    const match = entry.golden ? matchStructure(entry.golden, structureOf(last.result.workflow)).match : false;
    return {
      ...base,
      valid: true,
      match,
      calls,
      promptTokens,
      completionTokens,
      fixes: last.result.fixes.length,
      issues: [],
    };
  }
  const usage = last?.type === "failed" ? last.usage : { calls: 0, promptTokens: 0, completionTokens: 0 };
  const issues = last?.type === "failed" ? [...new Set(last.issues.map((i) => i.code))] : [];
  const error = last?.type === "failed" && last.reason !== "invalid" ? last.message : undefined;
  return { ...base, valid: false, match: false, ...usage, fixes: 0, issues, ...(error ? { error } : {}) };
}

/** Runs the requests one after another, yielding each row as it finishes. */
export async function* evaluateDesigner(
  model: DesignerModel,
  entries: readonly CorpusEntry[] = corpus,
  signal?: AbortSignal,
): AsyncGenerator<EvaluationRow> {
  for (const entry of entries) {
    if (signal?.aborted) return;
    yield await evaluateEntry(entry, model, signal);
  }
}

const per = (rows: readonly EvaluationRow[], f: (r: EvaluationRow) => number) =>
  rows.length ? rows.reduce((s, r) => s + f(r), 0) / rows.length : 0;

/** The totals of an evaluation's rows. */
export function summariseEvaluation(rows: readonly EvaluationRow[]): EvaluationSummary {
  const times = rows.map((r) => r.ms).sort((a, b) => a - b);
  const paths: Record<string, number> = {};
  for (const p of rows.flatMap((r) => r.paths)) paths[p] = (paths[p] ?? 0) + 1;
  return {
    requests: rows.length,
    validShare: per(rows, (r) => (r.valid ? 1 : 0)),
    goldenMatchShare: per(rows, (r) => (r.match ? 1 : 0)),
    callsPerRequest: per(rows, (r) => r.calls),
    promptTokensPerRequest: per(rows, (r) => r.promptTokens),
    completionTokensPerRequest: per(rows, (r) => r.completionTokens),
    msPerRequest: per(rows, (r) => r.ms),
    msP95: times.length ? times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)]! : 0,
    paths,
  };
}
