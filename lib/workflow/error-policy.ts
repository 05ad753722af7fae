import * as z from "zod";

/**
 * A node's error policy (`onError` on every node kind): retries with backoff for chosen error
 * classes, then what happens when the step still fails. The per-node timeout is the node's
 * `timeoutMs` (a timed-out try is of class `timeout`). Isomorphic: the engine applies it, the
 * validator checks it, the inspector edits it and the canvas shows it.
 */

/**
 * Why a step's try failed, as the engine classifies it: `rate_limit` (the provider answered 429
 * after lib/llm's own retries), `timeout` (the node's timeoutMs, or the provider call timed out),
 * `provider_5xx` (the provider failed or was unreachable), `tool_error` (a tool node's tool
 * failed), `invalid_output` (no usable answer: a refusal, a truncated answer, tool calls still
 * invalid after repairs, no valid branch after the format retries), `other` (anything else: a
 * permanent 4xx, a missing tool or agent, a subflow's run that failed).
 */
export const errorClasses = ["rate_limit", "timeout", "provider_5xx", "tool_error", "invalid_output", "other"] as const;
export const errorClassSchema = z.enum(errorClasses);
export type ErrorClass = z.infer<typeof errorClassSchema>;

/** How each class is named in the inspector and the timeline. */
export const errorClassLabels: Record<ErrorClass, string> = {
  rate_limit: "Rate limit (429)",
  timeout: "Timeout",
  provider_5xx: "Provider error (5xx, unreachable)",
  tool_error: "Tool error",
  invalid_output: "Invalid output",
  other: "Any other error",
};

/** The classes retried when a retry policy names none: the transient ones. */
export const TRANSIENT_ERROR_CLASSES: readonly ErrorClass[] = ["rate_limit", "timeout", "provider_5xx"];

/** Longest wait between two tries (a day): a longer backoff is a schedule, not a retry. */
export const MAX_RETRY_DELAY_MS = 24 * 3600_000;

export const retryPolicySchema = z.object({
  /** Tries in all, the first one included (3 = the first try and two retries). */
  maxAttempts: z.number().int().min(1).max(10).default(3),
  /** Wait before the first retry. */
  initialDelayMs: z.number().int().min(0).max(MAX_RETRY_DELAY_MS).default(1_000),
  /** Each further wait is the previous one times this. */
  backoffFactor: z.number().min(1).max(10).default(2),
  /** No wait is longer than this. */
  maxDelayMs: z.number().int().min(0).max(MAX_RETRY_DELAY_MS).optional(),
  /** The error classes that are retried; others go straight to `onExhausted`. */
  on: z.array(errorClassSchema).default([...TRANSIENT_ERROR_CLASSES]),
});
export type RetryPolicy = z.infer<typeof retryPolicySchema>;

/** What happens when the step still fails: the run fails, the step answers `fallback`, or takes its `error` outcome. */
export const exhaustedActions = ["fail", "fallback", "error_branch"] as const;

export const errorPolicySchema = z.object({
  retry: retryPolicySchema.optional(),
  onExhausted: z.enum(exhaustedActions).default("fail"),
  /** onExhausted `fallback`: the step's output (JSON) instead of the failure. */
  fallback: z.unknown().optional(),
  /** onExhausted `fallback`: the outcome followed (default: the node's only outcome); needed when it has several. */
  fallbackBranch: z.string().optional(),
});
export type ErrorPolicy = z.infer<typeof errorPolicySchema>;

/**
 * The outcome handle a node with `onExhausted: "error_branch"` (and every tool node) offers: an edge
 * like any other, carrying the error.
 */
export const ERROR_OUTCOME = "error";

/**
 * The policy the engine applies to a node: its own, or for a tool node without one whose `error`
 * outcome is wired, "take the error branch" (what tool nodes always did).
 */
export function effectivePolicy(
  node: { id: string; type: string; onError?: ErrorPolicy },
  workflow: { edges: readonly { source: string; sourceHandle: string }[] },
): ErrorPolicy {
  if (node.onError) return node.onError;
  const errorWired =
    node.type === "tool" && workflow.edges.some((e) => e.source === node.id && e.sourceHandle === ERROR_OUTCOME);
  return { onExhausted: errorWired ? "error_branch" : "fail" };
}

/**
 * The wait before retry number `retry` (1 = the first retry): initialDelayMs × backoffFactor^(retry − 1),
 * at most maxDelayMs.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number): number {
  const raw = policy.initialDelayMs * policy.backoffFactor ** Math.max(0, retry - 1);
  return Math.round(Math.min(raw, policy.maxDelayMs ?? MAX_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS));
}

/** Whether a try that failed with `errorClass` after `retries` retries gets another one. */
export function shouldRetry(policy: ErrorPolicy, errorClass: ErrorClass, retries: number): boolean {
  const r = policy.retry;
  return r !== undefined && r.on.includes(errorClass) && retries + 1 < r.maxAttempts;
}
