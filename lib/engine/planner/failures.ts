import {
  effectivePolicy,
  ERROR_OUTCOME,
  retryDelayMs,
  shouldRetry,
  type ErrorClass,
  type ErrorPolicy,
} from "@/lib/workflow/error-policy";
import type { WorkflowNode } from "@/lib/workflow/schema";
import type { TokenUsage } from "../events";
import { exhaust, finish, settle, takeStep } from "./budgets";
import { current, proceed } from "./results";
import { nodeState, type NodeState, type StepInput } from "./state";
import type { Ctx, PlannerEvent, StepKey } from "./types";

/**
 * A failed try and the node's error policy (lib/workflow/error-policy.ts). A budget hit inside the
 * step (`limit`) ends the run budget_exhausted whatever the policy says (R6). Otherwise:
 * - the class is retried and tries are left: the step waits (`retrying`, busy for joins, loops and
 *   the run's end) until `now` + the backoff, when the driver plans retry_due and the next try
 *   starts (a new attempt; the try's number goes to the executor so its side effects are its own);
 * - `fallback`: the step succeeds with the policy's fallback output along its fallback outcome;
 * - `error_branch`: the step ends failed but follows its `error` outcome with the error as output;
 * - `fail` (default): the run fails with the step's error (R9).
 */

type Failure = StepKey & { error: string; errorClass: ErrorClass; usage?: TokenUsage; latencyMs?: number };

export function onFailed(ctx: Ctx, f: Failure, limit?: string, status: "failed" | "timed_out" = "failed"): boolean {
  const ns = current(ctx, f);
  if (!ns) return false;
  const node = ctx.g.node(f.nodeId);
  if (!limit && node) {
    const policy = effectivePolicy(node, ctx.g.workflow);
    if (shouldRetry(policy, f.errorClass, ns.retry ?? 0)) return scheduleRetry(ctx, f, ns, policy);
    if (policy.onExhausted === "fallback") return fallBack(ctx, f, node, ns, policy);
    if (policy.onExhausted === "error_branch") return takeErrorBranch(ctx, f, node, ns, status);
  }
  return failStep(ctx, f, ns, limit, status);
}

/** The step fails for good and ends the run: failed, or budget_exhausted when it hit a limit. */
function failStep(
  ctx: Ctx,
  f: Failure,
  ns: NodeState,
  limit: string | undefined,
  status: "failed" | "timed_out",
): boolean {
  ns.phase = "failed";
  ctx.events.push({
    type: "step_finished",
    nodeId: f.nodeId,
    iteration: f.iteration,
    status,
    error: f.error,
    errorClass: f.errorClass,
    ...measures(f),
  });
  const reason = `Step "${f.nodeId}" (iteration ${f.iteration}) ${status === "timed_out" ? "" : "failed: "}${f.error}`;
  if (limit) exhaust(ctx, limit, reason);
  else finish(ctx, "failed", reason);
  return true;
}

/** The try's token usage and latency, as step events carry them. */
const measures = (f: Failure) => ({
  promptTokens: f.usage?.promptTokens ?? 0,
  completionTokens: f.usage?.completionTokens ?? 0,
  ...(f.latencyMs !== undefined ? { latencyMs: f.latencyMs } : {}),
});

function scheduleRetry(ctx: Ctx, f: Failure, ns: NodeState, policy: ErrorPolicy): boolean {
  const retry = policy.retry!;
  const next = (ns.retry ?? 0) + 1;
  const delayMs = retryDelayMs(retry, next);
  ns.phase = "retrying";
  ns.retry = next;
  ns.retryAt = ctx.options.now + delayMs;
  ctx.events.push({
    type: "step_retrying",
    nodeId: f.nodeId,
    iteration: f.iteration,
    attempt: f.attempt,
    error: f.error,
    errorClass: f.errorClass,
    retry: next,
    maxRetries: retry.maxAttempts - 1,
    delayMs,
    retryAt: new Date(ns.retryAt).toISOString(),
    ...measures(f),
  });
  settle(ctx);
  return true;
}

/** The outcome a fallback follows: the policy's, else the node's only outcome (a tool node's `error` aside). */
function fallbackOutcome(ctx: Ctx, node: WorkflowNode, policy: ErrorPolicy): string | undefined {
  if (policy.fallbackBranch !== undefined) return policy.fallbackBranch;
  const own = ctx.g.outcomes(node.id).filter((o) => o !== ERROR_OUTCOME);
  return own.length === 1 ? own[0] : undefined;
}

function fallBack(ctx: Ctx, f: Failure, node: WorkflowNode, ns: NodeState, policy: ErrorPolicy): boolean {
  const branch = fallbackOutcome(ctx, node, policy);
  const outcomes = ctx.g.outcomes(node.id);
  if (outcomes.length > 0 && (branch === undefined || !outcomes.includes(branch))) {
    return failStep(
      ctx,
      { ...f, error: `${f.error}; its fallback names no outcome to follow (${outcomes.join(", ")})` },
      ns,
      undefined,
      "failed",
    );
  }
  const output = policy.fallback === undefined ? null : policy.fallback;
  ctx.events.push({
    type: "step_finished",
    nodeId: f.nodeId,
    iteration: f.iteration,
    status: "succeeded",
    output,
    ...(branch !== undefined ? { branch } : {}),
    error: f.error,
    errorClass: f.errorClass,
    recovered: "fallback",
    ...measures(f),
  });
  return proceed(ctx, node, ns, f, output, branch);
}

function takeErrorBranch(
  ctx: Ctx,
  f: Failure,
  node: WorkflowNode,
  ns: NodeState,
  status: "failed" | "timed_out",
): boolean {
  const output = { error: f.error, errorClass: f.errorClass, attempts: (ns.retry ?? 0) + 1 };
  ctx.events.push({
    type: "step_finished",
    nodeId: f.nodeId,
    iteration: f.iteration,
    status,
    output,
    branch: ERROR_OUTCOME,
    error: f.error,
    errorClass: f.errorClass,
    recovered: "error_branch",
    ...measures(f),
  });
  return proceed(ctx, node, ns, f, output, ERROR_OUTCOME);
}

/**
 * A retry is due: the step's next try starts as a new attempt of the same iteration (a new step for
 * maxSteps, R6). Stale or repeated (the node moved on, or the run ended): ignored.
 */
export function onRetryDue(ctx: Ctx, e: Extract<PlannerEvent, { type: "retry_due" }>): boolean {
  const seen = ctx.state.nodes[e.nodeId];
  if (
    ctx.state.status !== "running" ||
    !seen ||
    seen.phase !== "retrying" ||
    seen.iteration !== e.iteration ||
    seen.retry !== e.retry
  )
    return false;
  if (!takeStep(ctx)) return true;
  const ns = nodeState(ctx.state, e.nodeId);
  ns.retryAt = undefined;
  startNextAttempt(ctx, e.nodeId, e.iteration, ns.input ?? { via: [] }, { retry: e.retry });
  return true;
}

/**
 * Starts the next attempt of a node's current visit (same iteration): an error-policy retry's next
 * try, or an agent step's continuation after an answer (`redispatch`: no new step for maxSteps).
 */
export function startNextAttempt(
  ctx: Ctx,
  nodeId: string,
  iteration: number,
  input: StepInput,
  extra: { retry?: number; redispatch?: true },
): void {
  const ns = nodeState(ctx.state, nodeId);
  const kind = ctx.g.node(nodeId)?.type ?? "unknown";
  ns.phase = "running";
  ns.attempt += 1;
  const retry = extra.retry !== undefined ? { retry: extra.retry } : {};
  ctx.commands.push({
    type: "start_step",
    nodeId,
    kind,
    iteration,
    attempt: ns.attempt,
    input,
    ...retry,
    ...(extra.redispatch ? { redispatch: true as const } : {}),
  });
  ctx.events.push({ type: "step_started", nodeId, iteration, attempt: ns.attempt, kind, ...retry });
}
