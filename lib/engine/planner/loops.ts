import type { Edge } from "@/lib/workflow/schema";
import { deliver, followForward, startNode } from "./activation";
import { exhaust } from "./budgets";
import { isBusy, nodeState } from "./state";
import type { Ctx } from "./types";

/**
 * Loop edges (R4). Following a loop edge starts a new iteration of its target and of every node
 * between target and source; earlier iterations' steps stay in the store (the trace keeps them).
 * The source's output travels as `feedback` into the re-entered node.
 *
 * Counting: a loop's first pass is iteration 1; the edge can be followed while the loop's
 * iteration < maxIterations (edge.maxIterations, else limits.maxIterationsPerLoop). So with max 3,
 * the evaluator may send the outline back twice: k < 3 rejections give k + 1 outline steps, and a
 * third rejection exhausts the loop. Then `onExhausted` decides: `continue` follows the source's
 * other outcome (edge.continueWith, else its first other outcome) with the last output and flags
 * loop_exhausted; `abort` (the default) ends the run budget_exhausted naming the loop.
 */

/** Max iterations of a loop edge. */
export function loopCap(ctx: Ctx, edge: Edge): number {
  return Math.max(1, edge.maxIterations ?? ctx.g.workflow.limits.maxIterationsPerLoop);
}

/**
 * Follows the loop edges of the chosen outcome. Returns the outcome to follow forward instead
 * (`continue` after exhaustion), or null when the loop was taken / the run ended.
 */
export function followLoops(ctx: Ctx, nodeId: string, chosen: string, loops: Edge[]): string | null {
  let continueWith: string | null = null;
  for (const edge of loops) {
    const iteration = ctx.state.loops[edge.id] ?? 1;
    const max = loopCap(ctx, edge);
    if (iteration < max) {
      ctx.state.loops[edge.id] = iteration + 1;
      ctx.events.push({
        type: "loop_iteration",
        edgeId: edge.id,
        source: edge.source,
        target: edge.target,
        iteration: iteration + 1,
        maxIterations: max,
      });
      reenter(ctx, edge, nodeState(ctx.state, nodeId).output);
      continue;
    }
    const action = edge.onExhausted ?? "abort";
    const alternative = edge.continueWith ?? ctx.g.outcomes(nodeId).find((o) => o !== chosen);
    ctx.events.push({
      type: "loop_exhausted",
      edgeId: edge.id,
      source: edge.source,
      target: edge.target,
      maxIterations: max,
      action,
      ...(action === "continue" && alternative ? { continueWith: alternative } : {}),
    });
    if (action === "abort" || !alternative) {
      exhaust(
        ctx,
        `loop:${edge.id}`,
        `Loop "${edge.id}" (${edge.source} → ${edge.target}) exhausted its maxIterations (${max})`,
      );
      return null;
    }
    nodeState(ctx.state, nodeId).loopExhausted = true;
    continueWith = alternative;
  }
  return continueWith;
}

/**
 * Re-arms the region between the loop's target and source for a new iteration: their inboxes are
 * cleared, except deliveries from outside the region (which will not come again) are carried over;
 * loops nested inside the region start counting afresh (maxSteps still bounds the whole run);
 * then the target starts at once with the feedback.
 */
function reenter(ctx: Ctx, edge: Edge, feedback: unknown): void {
  const region = ctx.g.between(edge.target, edge.source);
  region.add(edge.target);
  region.add(edge.source);
  for (const id of region) {
    if (id === edge.target) continue;
    const ns = nodeState(ctx.state, id);
    if (isBusy(ns)) continue;
    ns.inbox = {};
    ns.absorb = [];
    for (const e of ctx.g.incomingForward(id)) {
      const last = ctx.state.lastDelivery[e.id];
      if (!region.has(e.source) && last !== undefined) ns.inbox[e.id] = last;
    }
  }
  for (const inner of ctx.g.workflow.edges) {
    if (inner.kind === "loop" && inner.id !== edge.id && region.has(inner.source) && region.has(inner.target))
      delete ctx.state.loops[inner.id];
  }
  const target = nodeState(ctx.state, edge.target);
  if (isBusy(target)) return;
  target.inbox = {};
  target.absorb = [];
  startNode(ctx, edge.target, { via: [], loopEdge: edge.id, feedback });
}

/**
 * Routes a finished node along its chosen outcome: loop edges first (R4), then forward edges with
 * dead-path elimination for the others (R3). While a loop is being taken, the node's other outcomes
 * are undecided (it will run again), so nothing is delivered on them. Returns the forward targets.
 */
export function route(ctx: Ctx, nodeId: string, chosen: string): { outcome: string; targets: string[] } {
  const out = ctx.g.outgoing(nodeId).filter((e) => e.sourceHandle === chosen);
  const loops = out.filter((e) => e.kind === "loop");
  let outcome = chosen;
  if (loops.length > 0) {
    const alternative = followLoops(ctx, nodeId, chosen, loops);
    if (alternative === null) {
      const forward = out.filter((e) => e.kind === "forward");
      if (ctx.state.status === "running") for (const e of forward) deliver(ctx, e, "data");
      return { outcome, targets: forward.map((e) => e.target) };
    }
    outcome = alternative;
  }
  return { outcome, targets: followForward(ctx, nodeId, outcome) };
}
