import type { TerminalRunStatus, TokenUsage } from "../events";
import { isBusy, nodeState } from "./state";
import type { Ctx } from "./types";

/**
 * Termination (R9) and the shared budgets (R6). Every path that ends a run goes through `finish`,
 * which cancels whatever is still in flight so no step outlives its run.
 */

/** Ends the run (no-op when already ended): in-flight steps are cancelled, run_finished appended. */
export function finish(
  ctx: Ctx,
  status: TerminalRunStatus,
  reason: string,
  extra: { limit?: string; outputs?: Record<string, unknown> } = {},
): void {
  const { state } = ctx;
  if (state.status !== "running") return;
  const cancelled = [];
  for (const [nodeId, seen] of Object.entries(state.nodes)) {
    if (!isBusy(seen)) continue;
    const ns = nodeState(state, nodeId);
    // a map's open items end with it (map.ts)
    for (const [index, attempt] of Object.entries(ns.map?.open ?? {})) {
      const iteration = Number(index) + 1;
      cancelled.push({ nodeId: ns.map!.stepId, iteration, attempt, reason });
      ctx.events.push({
        type: "step_finished",
        nodeId: ns.map!.stepId,
        iteration,
        attempt,
        status: "cancelled",
        error: `Cancelled: ${reason}`,
        promptTokens: 0,
        completionTokens: 0,
      });
    }
    if (ns.map) ns.map = { ...ns.map, open: {} };
    ns.phase = "cancelled";
    cancelled.push({ nodeId, iteration: ns.iteration, attempt: ns.attempt, reason });
    ctx.events.push({
      type: "step_finished",
      nodeId,
      iteration: ns.iteration,
      status: "cancelled",
      error: `Cancelled: ${reason}`,
      promptTokens: 0,
      completionTokens: 0,
    });
  }
  if (cancelled.length > 0) ctx.commands.push({ type: "cancel_steps", steps: cancelled });
  state.status = status;
  state.reason = reason;
  if (extra.limit) state.limit = extra.limit;
  if (extra.outputs) state.outputs = extra.outputs;
  ctx.commands.push({ type: "finish_run", status, reason, ...extra });
  ctx.events.push({ type: "run_finished", status, reason, ...extra });
}

/** Ends the run budget_exhausted with the limit named (R6). */
export function exhaust(ctx: Ctx, limit: string, reason: string): void {
  finish(ctx, "budget_exhausted", reason, { limit });
}

/** Whether one more step may start; ends the run when maxSteps is used up. */
export function takeStep(ctx: Ctx): boolean {
  const max = ctx.g.workflow.limits.maxSteps;
  if (ctx.state.stepsStarted >= max) {
    exhaust(ctx, "maxSteps", `maxSteps (${max}) reached: the run started ${ctx.state.stepsStarted} steps`);
    return false;
  }
  ctx.state.stepsStarted += 1;
  return true;
}

/** Adds one model call's usage to the shared total; ends the run past tokenBudget (overshoot ≤ the calls in flight). */
export function addTokens(ctx: Ctx, usage: TokenUsage): void {
  const t = ctx.state.tokens;
  t.promptTokens += usage.promptTokens;
  t.completionTokens += usage.completionTokens;
  const budget = ctx.g.workflow.limits.tokenBudget;
  const total = t.promptTokens + t.completionTokens;
  if (budget !== undefined && total > budget) {
    exhaust(ctx, "tokenBudget", `tokenBudget (${budget}) exceeded: ${total} tokens used`);
  }
}

/**
 * Succeeds the run once an end was reached and nothing runs any more (R9); if nothing runs and no
 * end was reached the run can make no progress: it fails naming the waiting nodes (never a hang).
 * A human review waiting for its answer counts as running: the run waits for it (the driver parks
 * the run as `waiting` when nothing else runs).
 */
export function settle(ctx: Ctx): void {
  const { state } = ctx;
  if (state.status !== "running") return;
  const running = Object.values(state.nodes).some(isBusy);
  if (running) return;
  if (state.endReached) {
    finish(ctx, "succeeded", `Reached end node "${state.endReached.nodeId}"`, { outputs: state.endReached.outputs });
    return;
  }
  const waiting = Object.entries(state.nodes)
    .filter(([, n]) => Object.keys(n.inbox).length > 0)
    .map(([id]) => id);
  const detail = waiting.length > 0 ? `; waiting for inputs: ${waiting.join(", ")}` : "";
  finish(ctx, "failed", `No step can run and no end node was reached${detail}`);
}
