import type { WorkflowNode } from "@/lib/workflow/schema";
import { evaluate } from "./activation";
import { finish, settle } from "./budgets";
import { route } from "./loops";
import { nodeState, type NodeState } from "./state";
import type { Ctx, StepKey } from "./types";

/** The running node the key refers to, or undefined when the result is stale or a duplicate. */
export function current(ctx: Ctx, key: StepKey): NodeState | undefined {
  const ns = ctx.state.nodes[key.nodeId];
  if (ctx.state.status !== "running" || !ns || ns.phase !== "running") return undefined;
  return ns.iteration === key.iteration && ns.attempt === key.attempt ? nodeState(ctx.state, key.nodeId) : undefined;
}

/**
 * A step is done with `output` along `chosen` (its step_finished event already appended): an end
 * records the outputs, an abort ends the run, any other node routes along its outcome; then
 * whatever became ready starts and the run settles (R1, R3, R4, R9).
 */
export function proceed(
  ctx: Ctx,
  node: WorkflowNode,
  ns: NodeState,
  key: Omit<StepKey, "attempt">,
  output: unknown,
  chosen: string | undefined,
): boolean {
  ns.phase = "done";
  ns.output = output;
  ns.branch = chosen;
  if (node.type === "end") {
    const outputs = isRecord(output) ? output : { result: output };
    ctx.state.endReached ??= { nodeId: key.nodeId, outputs };
  } else if (node.type === "abort") {
    const reason =
      isRecord(output) && typeof output.reason === "string" ? output.reason : String(output ?? node.reason);
    finish(ctx, "aborted", reason);
  } else if (chosen !== undefined) {
    follow(ctx, key.nodeId, key.iteration, chosen, ctx.g.outcomes(key.nodeId).length);
  }
  evaluate(ctx, key.nodeId);
  settle(ctx);
  return true;
}

/** Routes along the chosen outcome; branch_taken is placed before the consequences it caused. */
function follow(ctx: Ctx, nodeId: string, iteration: number, chosen: string, outcomeCount: number): void {
  const at = ctx.events.length;
  ctx.skipped = [];
  const { outcome, targets } = route(ctx, nodeId, chosen);
  if (outcomeCount > 1) {
    ctx.events.splice(at, 0, {
      type: "branch_taken",
      nodeId,
      iteration,
      branch: outcome,
      targets,
      skipped: [...ctx.skipped],
    });
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
