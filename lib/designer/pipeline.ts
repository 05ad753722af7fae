import type { ValidationContext } from "@/lib/workflow/validate";
import { validate } from "@/lib/workflow/validate";
import { diffGrouped } from "@/lib/workflow/diff";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";
import { toDesign, type ModelClassMap } from "./compile";
import { buildFromDesign, buildFromEdits, type Built, type BuildEnv } from "./build";
import type { DesignerEvent, DesignerIssue, DesignResult, NodeDiff } from "./events";
import { KIND_NAMES, kindCatalogue } from "./kinds";
import { placeNodes, type LayoutFn } from "./layout";
import { mergeOverlappingAgents } from "./merge";
import { countingModel, type ChatMessage, type DesignerModel, type Usage } from "./model";
import * as P from "./prompts";
import { SCHEMA_NAMES, designAnswerSchema, editAnswerSchema, type DesignAnswer, type EditAnswer } from "./schemas";
import { subflowRepairNotes } from "./workflows";

/**
 * The designer pipeline as an async generator of events (the chat panel streams them):
 * (1+2) profile and emit in ONE structured call — or, for an existing graph, edit operations;
 * (3) local repairs + lib/workflow validation, feeding what is left back to the model at most
 * `maxRepairs` times, finishing with the remaining issues rather than a broken graph;
 * (4) optional agent merging, kept only if still valid; (5) layout keeping untouched positions;
 * (6) optional dry run, whose failing trace goes back to step 3.
 */

/** A run's sample inputs → whether the proposal worked, and a readable trace. Injected (engine-side). */
export type DryRunFn = (workflow: Workflow, sampleInputs: Record<string, unknown>, signal?: AbortSignal) => Promise<{ ok: boolean; trace: string }>;

export interface DesignRequest {
  /** What the user typed. */
  message: string;
  /** The current graph, for an edit; absent for a new workflow. */
  workflow?: Workflow;
}

export interface DesignerOptions {
  model: DesignerModel;
  /** Registered tools, saved agents and saved workflows (run by subflow nodes) the design may reuse. Default: none. */
  context?: P.DesignContext;
  /** Configured models per class (compiled into agent specs). Default: workflow default model. */
  models?: ModelClassMap;
  /**
   * Configured models, saved agent ids and the owner's workflows (subflow targets) for validation.
   * Default: those checks off, except subflows, checked against `context.workflows` when given.
   */
  validation?: Omit<ValidationContext, "tools">;
  /** Model repair rounds after the first answer. Default 3. */
  maxRepairs?: number;
  /** Merge agents with overlapping roles. Default true. */
  optimise?: boolean;
  /** Positioning (e.g. the editor's elkjs layout). Default: pure layered layout. */
  layout?: LayoutFn;
  dryRun?: DryRunFn;
  signal?: AbortSignal;
}

type Mode = { kind: "design" } | { kind: "edit"; base: Workflow };
type Answer = DesignAnswer | EditAnswer;
type Ctx = { opts: DesignerOptions; env: BuildEnv; usage: Usage; mode: Mode; request: DesignRequest };

/** Node-level diff of `next` against `base` (positions ignored). */
export function nodeDiff(base: Workflow | undefined, next: Workflow): NodeDiff {
  const before = new Map((base?.nodes ?? []).map((n) => [n.id, JSON.stringify({ ...n, position: undefined })]));
  const after = new Set(next.nodes.map((n) => n.id));
  return {
    added: next.nodes.filter((n) => !before.has(n.id)).map((n) => n.id),
    removed: [...before.keys()].filter((id) => !after.has(id)),
    changed: next.nodes.filter((n) => before.has(n.id) && before.get(n.id) !== JSON.stringify({ ...n, position: undefined })).map((n) => n.id),
  };
}

const build = (ctx: Ctx, answer: Answer): Built =>
  ctx.mode.kind === "design" ? buildFromDesign(answer as DesignAnswer, ctx.env) : buildFromEdits(ctx.mode.base, answer as EditAnswer, ctx.env);

function proposalEvent(attempt: number, answer: Answer): DesignerEvent {
  if ("operations" in answer) return { type: "proposal", attempt, summary: answer.summary, operations: answer.operations };
  return { type: "proposal", attempt, summary: answer.profile.summary, profile: answer.profile, nodes: answer.design.nodes.length, edges: answer.design.edges.length };
}

/** Step 4: merge overlapping agents; kept only when the merged document has no new error. */
function optimise(ctx: Ctx, wf: Workflow): { workflow: Workflow; merged: DesignResult["merged"] } {
  if (ctx.opts.optimise === false) return { workflow: wf, merged: [] };
  const { workflow, merged } = mergeOverlappingAgents(wf);
  if (merged.length === 0) return { workflow: wf, merged };
  const tools = ctx.env.context.tools.map((t) => t.name);
  const errors = (doc: Workflow) => validate(doc, { ...ctx.env.validation, tools }).filter((i) => i.severity === "error").length;
  return errors(workflow) <= errors(wf) ? { workflow, merged } : { workflow: wf, merged: [] };
}

async function finish(ctx: Ctx, built: Built, answer: Answer): Promise<DesignResult> {
  const { workflow, merged } = optimise(ctx, built.workflow!);
  const base = ctx.mode.kind === "edit" ? ctx.mode.base : undefined;
  const keep = new Set((base?.nodes ?? []).map((n) => n.id));
  const laidOut = await placeNodes(workflow, keep, ctx.opts.layout);
  const edit = "operations" in answer ? answer : undefined;
  const design = "profile" in answer ? answer : undefined;
  return {
    workflow: laidOut,
    ...(base ? { base } : {}),
    diff: nodeDiff(base, laidOut),
    changes: diffGrouped(base ?? workflowSchema.parse({}), laidOut),
    summary: edit?.summary ?? design?.profile.summary ?? "",
    ...(design ? { profile: design.profile } : {}),
    ...(edit ? { operations: edit.operations } : {}),
    toCreate: built.toCreate,
    pendingIssues: built.pending,
    fixes: built.fixes,
    merged,
    usage: { ...ctx.usage },
  };
}

async function ask(ctx: Ctx, model: DesignerModel, messages: ChatMessage[]) {
  const context = ctx.env.context;
  const kinds = kindCatalogue({ subflows: (context.workflows?.length ?? 0) > 0 });
  if (ctx.mode.kind === "design") {
    return model.structured({ name: SCHEMA_NAMES.design, schema: designAnswerSchema as never, system: P.designSystemPrompt(kinds, context), messages, signal: ctx.opts.signal });
  }
  return model.structured({ name: SCHEMA_NAMES.edit, schema: editAnswerSchema as never, system: P.editSystemPrompt(kinds, context), messages, signal: ctx.opts.signal });
}

function firstMessage(ctx: Ctx): ChatMessage {
  if (ctx.mode.kind === "design") return { role: "user", content: ctx.request.message };
  const { design, agents } = toDesign(ctx.mode.base);
  return { role: "user", content: P.editUserMessage(ctx.request.message, { ...design, agents }) };
}

const cancelled = (ctx: Ctx): DesignerEvent => ({ type: "failed", reason: "cancelled", message: "Cancelled.", issues: [], usage: { ...ctx.usage } });

/** The validation context; subflows are checked against the context's workflows unless the caller lists the owner's own. */
function validationOf(opts: DesignerOptions): DesignerOptions["validation"] {
  const offered = opts.context?.workflows;
  if (opts.validation?.workflows || !offered?.length) return opts.validation;
  return { ...opts.validation, workflows: offered.map(({ id, name, inputs }) => ({ id, name, inputs })) };
}

/** Runs the designer on one request; the last event is always `done` or `failed`. */
export async function* design(request: DesignRequest, opts: DesignerOptions): AsyncGenerator<DesignerEvent, void> {
  const usage: Usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  const env: BuildEnv = { kinds: KIND_NAMES, models: opts.models, context: opts.context ?? { tools: [], savedAgents: [] }, validation: validationOf(opts) };
  const ctx: Ctx = { opts, env, usage, request, mode: request.workflow ? { kind: "edit", base: request.workflow } : { kind: "design" } };
  yield* attempts(ctx, countingModel(opts.model, usage));
}

async function* attempts(ctx: Ctx, model: DesignerModel): AsyncGenerator<DesignerEvent, void> {
  const what = ctx.mode.kind;
  const maxRepairs = ctx.opts.maxRepairs ?? 3;
  let followUp: ChatMessage[] = [];
  let previous: DesignerIssue[] = [];
  for (let attempt = 0; attempt <= maxRepairs; attempt++) {
    if (ctx.opts.signal?.aborted) return yield cancelled(ctx);
    yield { type: "stage_started", stage: attempt === 0 ? what : "repair", attempt };
    let result;
    try {
      result = await ask(ctx, model, [firstMessage(ctx), ...followUp]);
    } catch (e) {
      if (ctx.opts.signal?.aborted) return yield cancelled(ctx);
      return yield { type: "failed", reason: "model_error", message: (e as Error).message, issues: previous, usage: { ...ctx.usage } };
    }
    if (!result.ok) {
      previous = [{ code: "unparseable_answer", message: result.error }];
      yield { type: "issues_found", attempt, issues: previous };
      followUp = [{ role: "assistant", content: result.raw }, { role: "user", content: P.formatRepairMessage(result.error) }];
      continue;
    }
    const answer = result.value as Answer;
    yield proposalEvent(attempt, answer);
    const built = build(ctx, answer);
    let notes: string[] = [];
    if (built.fixes.length) yield { type: "repaired", attempt, by: "local", fixes: built.fixes };
    yield { type: "stage_started", stage: "validate", attempt };
    if (built.blocking.length === 0 && built.workflow) {
      if (previous.length) yield { type: "repaired", attempt, by: "model", fixes: previous.map(({ code, message }) => ({ code, message })) };
      const outcome = yield* complete(ctx, built, answer, attempt);
      if (outcome.done) return;
      previous = outcome.issues;
    } else {
      previous = built.blocking;
      notes = subflowRepairNotes(previous, built.workflow, ctx.env.context.workflows, ctx.env.validation?.workflows);
      yield { type: "issues_found", attempt, issues: previous };
    }
    const repair = previous[0]?.code === "dry_run_failed" ? P.dryRunRepairMessage(previous[0].message, what) : P.repairMessage(previous, what, notes);
    followUp = [{ role: "assistant", content: result.raw }, { role: "user", content: repair }];
  }
  yield { type: "failed", reason: "invalid", message: `Still invalid after ${maxRepairs} repairs.`, issues: previous, usage: { ...ctx.usage } };
}

/**
 * A dry run starts no child runs (they would be real runs of the user's workflows; the engine fails a
 * subflow step without a subflow port), so a proposal with subflow nodes is not dry-run.
 */
const dryRunnable = (wf: Workflow) => !wf.nodes.some((n) => n.type === "subflow");

/** Steps 4–6 on a valid build; a failing dry run returns its trace as the issue to repair. */
async function* complete(ctx: Ctx, built: Built, answer: Answer, attempt: number): AsyncGenerator<DesignerEvent, { done: boolean; issues: DesignerIssue[] }> {
  yield { type: "stage_started", stage: "optimise", attempt };
  yield { type: "stage_started", stage: "layout", attempt };
  const result = await finish(ctx, built, answer);
  if (ctx.opts.dryRun && !dryRunnable(result.workflow)) {
    result.dryRun = { ok: true, skipped: true, trace: "The proposal runs saved workflows as subflows; a dry run would start real runs of them, so it was not dry-run." };
  } else if (ctx.opts.dryRun) {
    if (ctx.opts.signal?.aborted) return yield cancelled(ctx), { done: true, issues: [] };
    yield { type: "stage_started", stage: "dry_run", attempt };
    const samples = "profile" in answer ? (answer.profile.sampleInputs ?? {}) : {};
    const run = await ctx.opts.dryRun(result.workflow, samples, ctx.opts.signal);
    if (!run.ok) {
      const issues = [{ code: "dry_run_failed", message: run.trace }];
      yield { type: "issues_found", attempt, issues };
      return { done: false, issues };
    }
    result.dryRun = run;
  }
  result.usage = { ...ctx.usage };
  yield { type: "done", result };
  return { done: true, issues: [] };
}
