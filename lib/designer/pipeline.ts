import type { ValidationContext } from "@/lib/workflow/validate";
import { validate } from "@/lib/workflow/validate";
import { diffGrouped } from "@/lib/workflow/diff";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";
import { toDesign, type ModelClassMap } from "./compile";
import { buildFromDesign, buildFromEdits, type Built, type BuildEnv } from "./build";
import type { DesignerEvent, DesignerIssue, DesignResult, NodeDiff } from "./events";
import { summariseFixes } from "./fixes";
import { withPaths } from "./issue-paths";
import { designSchemas, editSchemas, type WireSchemas } from "./json-schema";
import { KIND_NAMES, kindCatalogue } from "./kinds";
import { placeNodes, type LayoutFn } from "./layout";
import { mergeOverlappingAgents } from "./merge";
import { countingModel, type ChatMessage, type DesignerModel, type StructuredResult, type Usage } from "./model";
import { summarySoFar } from "./draft-summary";
import * as P from "./prompts";
import { readDesignAnswer, readEditAnswer } from "./read";
import { dryRunDecision, type DryRunFn, type DryRunPolicy } from "./dry-run-policy";
import type { DesignAnswer, EditAnswer } from "./schemas";
import { subflowRepairNotes } from "./workflows";

export type { DryRunFn, DryRunPolicy } from "./dry-run-policy";

/**
 * The designer pipeline as an async generator of events (the chat panel streams them):
 * (1+2) profile and emit in ONE structured call with the exact answer schema — or, for an existing
 * graph, edit operations; (3) the answer is read leniently and every obvious fix made locally
 * (repair*.ts), then lib/workflow validates; only what stays ambiguous goes back to the model, with
 * the issue list and where in the answer each issue is, at most `maxRepairs` times (an answer the model
 * repeats ends it early); (4) optional agent merging, kept only if still valid; (5) layout keeping
 * untouched positions; (6) the dry run (by default only for proposals without side-effecting tools),
 * whose failing trace goes back to step 3.
 */

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
  /** "always" (default with `dryRun`), or "auto": only proposals whose tools have no side effects. */
  dryRunPolicy?: DryRunPolicy;
  signal?: AbortSignal;
  /** Stream each model answer and report its summary as it is written (`drafting` events). Default false. */
  streamSummary?: boolean;
}

type Mode = { kind: "design" } | { kind: "edit"; base: Workflow };
type Answer = DesignAnswer | EditAnswer;
type Ctx = {
  opts: DesignerOptions;
  env: BuildEnv;
  usage: Usage;
  mode: Mode;
  request: DesignRequest;
  schemas: WireSchemas;
};

/** Node-level diff of `next` against `base` (positions ignored). */
export function nodeDiff(base: Workflow | undefined, next: Workflow): NodeDiff {
  const strip = (n: Workflow["nodes"][number]) => JSON.stringify({ ...n, position: undefined });
  const before = new Map((base?.nodes ?? []).map((n) => [n.id, strip(n)]));
  const after = new Set(next.nodes.map((n) => n.id));
  return {
    added: next.nodes.filter((n) => !before.has(n.id)).map((n) => n.id),
    removed: [...before.keys()].filter((id) => !after.has(id)),
    changed: next.nodes.filter((n) => before.has(n.id) && before.get(n.id) !== strip(n)).map((n) => n.id),
  };
}

function proposalEvent(attempt: number, answer: Answer): DesignerEvent {
  if ("operations" in answer)
    return { type: "proposal", attempt, summary: answer.summary, operations: answer.operations };
  const { profile, design } = answer;
  return {
    type: "proposal",
    attempt,
    summary: profile.summary,
    profile,
    nodes: design.nodes.length,
    edges: design.edges.length,
  };
}

/** Step 4: merge overlapping agents; kept only when the merged document has no new error. */
function optimise(ctx: Ctx, wf: Workflow): { workflow: Workflow; merged: DesignResult["merged"] } {
  if (ctx.opts.optimise === false) return { workflow: wf, merged: [] };
  const { workflow, merged } = mergeOverlappingAgents(wf);
  if (merged.length === 0) return { workflow: wf, merged };
  const tools = ctx.env.context.tools.map((t) => t.name);
  const errors = (doc: Workflow) =>
    validate(doc, { ...ctx.env.validation, tools }).filter((i) => i.severity === "error").length;
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

function system(ctx: Ctx): string {
  const context = ctx.env.context;
  const kinds = kindCatalogue({ subflows: (context.workflows?.length ?? 0) > 0 });
  return ctx.mode.kind === "design" ? P.designSystemPrompt(kinds, context) : P.editSystemPrompt(kinds, context);
}

function firstMessage(ctx: Ctx): ChatMessage {
  if (ctx.mode.kind === "design") return { role: "user", content: ctx.request.message };
  const { design, agents } = toDesign(ctx.mode.base);
  return { role: "user", content: P.editUserMessage(ctx.request.message, { ...design, agents }) };
}

const cancelled = (ctx: Ctx): DesignerEvent => ({
  type: "failed",
  reason: "cancelled",
  message: "Cancelled.",
  issues: [],
  usage: { ...ctx.usage },
});

/** The validation context; subflows are checked against the context's workflows unless the caller lists the owner's own. */
function validationOf(opts: DesignerOptions): DesignerOptions["validation"] {
  const offered = opts.context?.workflows;
  if (opts.validation?.workflows || !offered?.length) return opts.validation;
  return { ...opts.validation, workflows: offered.map(({ id, name, inputs }) => ({ id, name, inputs })) };
}

function schemasFor(context: P.DesignContext, mode: Mode): WireSchemas {
  const wire = {
    savedAgentIds: context.savedAgents.map((a) => a.id),
    workflowIds: (context.workflows ?? []).map((w) => w.id),
  };
  if (mode.kind === "design") return designSchemas(wire);
  return editSchemas(wire, {
    nodeIds: mode.base.nodes.map((n) => n.id),
    agentKeys: mode.base.agents.map((a) => a.key),
  });
}

/** Runs the designer on one request; the last event is always `done` or `failed`. */
export async function* design(request: DesignRequest, opts: DesignerOptions): AsyncGenerator<DesignerEvent, void> {
  const usage: Usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  const context = opts.context ?? { tools: [], savedAgents: [] };
  const env: BuildEnv = { kinds: KIND_NAMES, models: opts.models, context, validation: validationOf(opts) };
  const mode: Mode = request.workflow ? { kind: "edit", base: request.workflow } : { kind: "design" };
  const ctx: Ctx = { opts, env, usage, request, mode, schemas: schemasFor(context, mode) };
  yield* attempts(ctx, countingModel(opts.model, usage));
}

/**
 * Awaits one model call; with `streamSummary`, yields a `drafting` event each time the summary it is
 * writing grew (at most one per change the consumer has not read yet: a fast model's deltas merge).
 */
async function* drafted(
  ctx: Ctx,
  attempt: number,
  call: (onText?: (text: string, retry: number) => void) => Promise<StructuredResult>,
): AsyncGenerator<DesignerEvent, StructuredResult> {
  if (!ctx.opts.streamSummary) return await call();
  let raw = "";
  let retry = 0;
  let shown = "";
  let wake: (() => void) | undefined;
  const result = call((text, r) => {
    if (r !== retry) [raw, retry] = ["", r];
    raw += text;
    wake?.();
  });
  let settled = false;
  const done = result.then(
    () => void (settled = true),
    () => void (settled = true),
  );
  for (;;) {
    const summary = summarySoFar(raw);
    if (summary && summary !== shown) {
      shown = summary;
      yield { type: "drafting", attempt, summary };
      continue;
    }
    if (settled) return await result;
    await Promise.race([done, new Promise<void>((r) => (wake = r))]);
    wake = undefined;
  }
}

type Turn = { issues: DesignerIssue[]; followUp: ChatMessage[] };

/**
 * One answer: read, repaired, validated. Returns undefined when it finished the design, "repeated"
 * for a design the model had answered before (it meets the same issues again: asking once more
 * would not change it), else what goes back to the model.
 */
async function* turn(
  ctx: Ctx,
  data: unknown,
  raw: string,
  attempt: number,
  previous: DesignerIssue[],
  answers: Set<string>,
): AsyncGenerator<DesignerEvent, Turn | "repeated" | undefined> {
  const what = ctx.mode.kind;
  const read = what === "design" ? readDesignAnswer(data) : readEditAnswer(data);
  if (!read.ok) {
    const issues = [{ code: "unparseable_answer", message: read.error }];
    yield { type: "issues_found", attempt, issues };
    return {
      issues,
      followUp: [
        { role: "assistant", content: raw },
        { role: "user", content: P.formatRepairMessage(read.error) },
      ],
    };
  }
  const answer = read.answer;
  const key = JSON.stringify(answer);
  if (answers.has(key)) return "repeated";
  answers.add(key);
  yield proposalEvent(attempt, answer);
  const built =
    ctx.mode.kind === "design"
      ? buildFromDesign(answer as DesignAnswer, ctx.env, read.fixes)
      : buildFromEdits(ctx.mode.base, answer as EditAnswer, ctx.env, read.fixes);
  if (built.fixes.length)
    yield { type: "repaired", attempt, by: "local", fixes: built.fixes, summary: summariseFixes(built.fixes) };
  yield { type: "stage_started", stage: "validate", attempt };
  let issues: DesignerIssue[];
  if (built.blocking.length === 0 && built.workflow) {
    if (previous.length) {
      const fixes = previous.map(({ code, message }) => ({ repair: "operation_fixed" as const, code, message }));
      yield {
        type: "repaired",
        attempt,
        by: "model",
        fixes,
        summary: `${previous.length} issue${previous.length === 1 ? "" : "s"} fixed by the model`,
      };
    }
    const outcome = yield* complete(ctx, built, answer, attempt);
    if (outcome.done) return undefined;
    issues = outcome.issues;
  } else {
    issues = withPaths(built.blocking, answer, built.workflow);
    yield { type: "issues_found", attempt, issues };
  }
  const notes = subflowRepairNotes(issues, built.workflow, ctx.env.context.workflows, ctx.env.validation?.workflows);
  const repair =
    issues[0]?.code === "dry_run_failed"
      ? P.dryRunRepairMessage(issues[0].message, what)
      : P.repairMessage(issues, what, notes);
  return {
    issues,
    followUp: [
      { role: "assistant", content: raw },
      { role: "user", content: repair },
    ],
  };
}

async function* attempts(ctx: Ctx, model: DesignerModel): AsyncGenerator<DesignerEvent, void> {
  const maxRepairs = ctx.opts.maxRepairs ?? 3;
  let followUp: ChatMessage[] = [];
  let previous: DesignerIssue[] = [];
  const answers = new Set<string>();
  for (let attempt = 0; attempt <= maxRepairs; attempt++) {
    if (ctx.opts.signal?.aborted) return yield cancelled(ctx);
    yield { type: "stage_started", stage: attempt === 0 ? ctx.mode.kind : "repair", attempt };
    let result;
    try {
      result = yield* drafted(ctx, attempt, (onText) =>
        model.structured({
          schema: ctx.schemas,
          system: system(ctx),
          messages: [firstMessage(ctx), ...followUp],
          signal: ctx.opts.signal,
          ...(onText ? { onText } : {}),
        }),
      );
    } catch (e) {
      if (ctx.opts.signal?.aborted) return yield cancelled(ctx);
      return yield {
        type: "failed",
        reason: "model_error",
        message: (e as Error).message,
        issues: previous,
        usage: { ...ctx.usage },
      };
    }
    const next = result.ok
      ? yield* turn(ctx, result.data, result.raw, attempt, previous, answers)
      : yield* unparseable(result.error, result.raw, attempt);
    if (!next) return;
    if (next === "repeated") {
      const message = "The model repeated an answer it had given before; asking again would not change it.";
      return yield { type: "failed", reason: "invalid", message, issues: previous, usage: { ...ctx.usage } };
    }
    previous = next.issues;
    followUp = next.followUp;
  }
  yield {
    type: "failed",
    reason: "invalid",
    message: `Still invalid after ${maxRepairs} repairs.`,
    issues: previous,
    usage: { ...ctx.usage },
  };
}

async function* unparseable(error: string, raw: string, attempt: number): AsyncGenerator<DesignerEvent, Turn> {
  const issues = [{ code: "unparseable_answer", message: error }];
  yield { type: "issues_found", attempt, issues };
  return {
    issues,
    followUp: [
      { role: "assistant", content: raw },
      { role: "user", content: P.formatRepairMessage(error) },
    ],
  };
}

/**
 * A dry run starts no child runs (they would be real runs of the user's workflows; the engine fails a
 * subflow step without a subflow port), so a proposal with subflow nodes is not dry-run.
 */
async function* complete(
  ctx: Ctx,
  built: Built,
  answer: Answer,
  attempt: number,
): AsyncGenerator<DesignerEvent, { done: boolean; issues: DesignerIssue[] }> {
  yield { type: "stage_started", stage: "optimise", attempt };
  yield { type: "stage_started", stage: "layout", attempt };
  const result = await finish(ctx, built, answer);
  const decision = ctx.opts.dryRun
    ? dryRunDecision(result, ctx.opts.dryRunPolicy ?? "always", ctx.env.context.tools)
    : undefined;
  if (decision && !decision.run) {
    result.dryRun = { ok: true, skipped: true, trace: decision.why };
  } else if (ctx.opts.dryRun) {
    if (ctx.opts.signal?.aborted) return (yield cancelled(ctx), { done: true, issues: [] });
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
