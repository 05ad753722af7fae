import type { ErrorClass } from "@/lib/workflow/error-policy";
import type { AgentSpec, ModelRef, Workflow } from "@/lib/workflow/schema";
import { renderTemplate, renderTemplateValue, type TemplateContext } from "@/lib/workflow/template";
import { AwaitingApproval, ModelCallError, StepError, StepLimitError } from "../errors";
import type { StepEnv, StepOutcome } from "./types";
import type { TokenUsage } from "../events";

/**
 * The error class of what an executor threw (lib/workflow/error-policy.ts): a StepError's own; a
 * model call's by how it failed (its timeout, 429 after lib/llm's retries, 5xx or unreachable after
 * them); anything else `other` (a permanent 4xx, a bug).
 */
export function errorClassOf(err: unknown): ErrorClass {
  if (err instanceof StepError) return err.errorClass;
  if (!(err instanceof ModelCallError)) return "other";
  if (err.kind === "timeout") return "timeout";
  if (err.status === 429) return "rate_limit";
  if (err.kind === "retries_exhausted" || (err.status ?? 0) >= 500) return "provider_5xx";
  return "other";
}

/** The agent spec a node refers to, or a StepError naming the missing key. */
export function agentSpec(workflow: Workflow, key: string): AgentSpec {
  const spec = workflow.agents.find((a) => a.key === key);
  if (!spec) throw new StepError(`agent "${key}" is not declared in the workflow`);
  return spec;
}

/**
 * R10: the model of a call — the agent's (or router's) own model, else the workflow default, else
 * null (the owner's default model, resolved by the ModelPort adapter). An agent's temperature wins.
 */
export function resolveModel(workflow: Workflow, own: ModelRef | undefined, temperature?: number): ModelRef | null {
  const base = own ?? workflow.defaultModel;
  if (!base) return null;
  return temperature === undefined ? { ...base } : { ...base, temperature };
}

/**
 * The idempotency key of a side effect of this step (ToolsPort.idempotencyKey): the run, node and
 * iteration, the error-policy retry (`:r<n>` from the first retry on: a retry is a new try, whose
 * effects are its own, while a crash re-dispatch of one try repeats none), then `scope` (e.g. the
 * orchestrator handoff a worker's call belongs to, and the call's turn and index).
 */
export function effectKey(ctx: Pick<StepEnv, "runId" | "node" | "iteration" | "retry">, ...scope: string[]): string {
  const base = `${ctx.runId}:${ctx.node.id}:${ctx.iteration}${ctx.retry > 0 ? `:r${ctx.retry}` : ""}`;
  return scope.length > 0 ? `${base}:${scope.join(":")}` : base;
}

/** Renders a templated task; feedback not referenced by the template is appended so a loop's critique is never lost. */
export function renderTask(task: string, data: TemplateContext): string {
  const text = renderTemplate(task, data);
  if (data.feedback === undefined || task.includes("{{feedback")) return text;
  const fb = renderTemplate("{{feedback}}", data);
  return `${text}\n\nFeedback on the previous attempt:\n${fb}`;
}

/** Renders tool arguments: strings are templates (a lone tag keeps the value's type), objects/arrays recursively. */
export function renderArgs(value: unknown, data: TemplateContext): unknown {
  if (typeof value === "string") return renderTemplateValue(value, data);
  if (Array.isArray(value)) return value.map((v) => renderArgs(v, data));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderArgs(v, data)]));
  }
  return value;
}

/** Wraps an executor body: measures latency and maps known errors to a failed outcome with a clear reason. */
export async function measured(
  ctx: StepEnv,
  usage: TokenUsage,
  body: () => Promise<{ output: unknown; branch?: string }>,
): Promise<StepOutcome> {
  const started = Date.now();
  try {
    const r = await body();
    return { status: "succeeded", ...r, usage, latencyMs: Date.now() - started };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const latencyMs = Date.now() - started;
    if (err instanceof AwaitingApproval) return { status: "waiting", request: err.request, usage, latencyMs };
    if (err instanceof StepLimitError)
      return { status: "failed", error: err.message, limit: err.limit, usage, latencyMs };
    return { status: "failed", error: describeError(err), errorClass: errorClassOf(err), usage, latencyMs };
  }
}

/** A one-line reason for the trace. */
export function describeError(err: unknown): string {
  if (err instanceof ModelCallError) {
    return `model call failed (${err.kind}${err.status ? `, HTTP ${err.status}` : ""}): ${err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}
