import type { Edge } from "@/lib/workflow/schema";
import { takeStep } from "./budgets";
import { reuseFor } from "./reuse";
import { isBusy, nodeState, type Delivery, type StepInput } from "./state";
import type { Ctx } from "./types";

/**
 * Activation (R1), concurrency (R2: every node that becomes ready in one pass is emitted as its own
 * start_step, so the driver runs them together) and dead-path elimination (R3).
 *
 * Each node has an inbox: incoming forward edges deliver `data` or `dead` into it. A join=all node
 * fires when every incoming forward edge has delivered; join=any fires on the first data. A node
 * whose inbox is complete but all dead is skipped, and its own outgoing forward edges deliver dead
 * in turn, so joins downstream never wait for a branch that was not taken.
 */

/** Delivers on one forward edge and activates its target if that completes the target's inputs. */
export function deliver(ctx: Ctx, edge: Edge, kind: Delivery): void {
  const ns = nodeState(ctx.state, edge.target);
  ctx.state.lastDelivery[edge.id] = kind;
  const absorbed = ns.absorb.indexOf(edge.id);
  if (absorbed >= 0) {
    ns.absorb.splice(absorbed, 1);
    return;
  }
  ns.inbox[edge.id] = kind;
  evaluate(ctx, edge.target);
}

/** Starts or skips a node whose inbox is complete (no-op while it runs: the inbox waits for the next round). */
export function evaluate(ctx: Ctx, nodeId: string): void {
  const node = ctx.g.node(nodeId);
  const ns = nodeState(ctx.state, nodeId);
  if (!node || isBusy(ns) || ctx.state.status !== "running") return;
  const incoming = ctx.g.incomingForward(nodeId);
  if (incoming.length === 0) return;
  const delivered = incoming.filter((e) => ns.inbox[e.id] !== undefined);
  const data = delivered.filter((e) => ns.inbox[e.id] === "data");
  const complete = delivered.length === incoming.length;
  if (node.join === "any" && data.length > 0) {
    ns.absorb = incoming.filter((e) => ns.inbox[e.id] === undefined).map((e) => e.id);
    startNode(ctx, nodeId, { via: data.map((e) => e.id) });
  } else if (complete && data.length > 0) {
    startNode(ctx, nodeId, { via: data.map((e) => e.id) });
  } else if (complete) {
    skipNode(ctx, nodeId);
  }
}

/** Emits start_step for the node's next iteration (unless the run ended, an end was reached, or maxSteps is used up). */
export function startNode(ctx: Ctx, nodeId: string, input: StepInput): void {
  const node = ctx.g.node(nodeId);
  const ns = nodeState(ctx.state, nodeId);
  if (!node || ctx.state.status !== "running" || ctx.state.endReached) return;
  if (!takeStep(ctx)) return;
  if (node.type === "orchestrator") input = { ...input, effectKeys: 2 };
  ns.inbox = {};
  ns.phase = "running";
  ns.iteration += 1;
  ns.attempt = 1;
  ns.input = input;
  ns.loopExhausted = undefined;
  ns.retry = undefined;
  ns.retryAt = undefined;
  const reused = reuseFor(ctx, nodeId, ns.iteration, input);
  const reuse = reused && { reuse: { output: reused.output, branch: reused.branch } };
  ctx.commands.push({
    type: "start_step",
    nodeId,
    kind: node.type,
    iteration: ns.iteration,
    attempt: 1,
    input,
    ...reuse,
  });
  ctx.events.push({
    type: "step_started",
    nodeId,
    iteration: ns.iteration,
    attempt: 1,
    kind: node.type,
    ...(input.feedback !== undefined ? { feedback: input.feedback } : {}),
    ...(reused ? { reused: { runId: ctx.seed!.runId, edited: reused.edited === true } } : {}),
  });
}

/** Marks the node skipped (dead path) and propagates dead on all its outgoing forward edges. */
export function skipNode(ctx: Ctx, nodeId: string): void {
  const node = ctx.g.node(nodeId);
  const ns = nodeState(ctx.state, nodeId);
  if (!node) return;
  ns.inbox = {};
  ns.phase = "skipped";
  ns.iteration += 1;
  ctx.skipped.push(nodeId);
  ctx.commands.push({ type: "skip_step", nodeId, kind: node.type, iteration: ns.iteration });
  ctx.events.push({
    type: "step_finished",
    nodeId,
    iteration: ns.iteration,
    status: "skipped",
    promptTokens: 0,
    completionTokens: 0,
  });
  for (const e of ctx.g.outgoing(nodeId)) if (e.kind === "forward") deliver(ctx, e, "dead");
}

/**
 * Follows a node's chosen outcome along forward edges: data to the chosen outcome's targets, dead
 * to every other outcome's targets (R3). Loop edges are handled by the caller (loops.ts).
 */
export function followForward(ctx: Ctx, nodeId: string, chosen: string): string[] {
  const edges = ctx.g.outgoing(nodeId).filter((e) => e.kind === "forward");
  const taken = edges.filter((e) => e.sourceHandle === chosen);
  for (const e of taken) deliver(ctx, e, "data");
  for (const e of edges) if (e.sourceHandle !== chosen) deliver(ctx, e, "dead");
  return taken.map((e) => e.target);
}
