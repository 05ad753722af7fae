import type { ErrorClass } from "@/lib/workflow/error-policy";
import { MAP_MAX_ITEMS, mapConcurrency, mapItemsId, parseMapItemsId, type MapOutput } from "@/lib/workflow/map";
import type { NodeOf } from "@/lib/workflow/schema";
import type { TokenUsage } from "../events";
import { takeStep } from "./budgets";
import { onFailed } from "./failures";
import { proceed } from "./results";
import { nodeState, type MapState, type NodeState, type PlannerState } from "./state";
import type { Ctx, PlannerCommand, StepKey } from "./types";

/**
 * Map nodes (docs/workflow-model.md, "Map"). The map's own step finds its items (the map executor
 * answers `{mapItems: [...]}`); the planner then runs the body once per item as steps of their own,
 * node id `mapItemsId(map, visit)` and iteration = the item's 1-based index, at most `concurrency`
 * at once, each committed on its own (R7: a resume re-dispatches only the open items). Every item
 * step counts toward maxSteps and its model calls toward tokenBudget (R6); the run's end cancels
 * open items (R9). When the last item is done the map's step succeeds with the results in item
 * order. A failed item: `fail` cancels the open items and fails the map's step (its onError
 * decides what follows: fail the run, fallback, error branch); `skip` leaves it out of the results;
 * `collect` puts `{error}` in its place.
 */

/** What the map executor answers: the items found (not the map's output, which comes when they are done). */
export const isMapExpansion = (output: unknown): output is { mapItems: unknown[] } =>
  typeof output === "object" && output !== null && Array.isArray((output as { mapItems?: unknown }).mapItems);

/** The map's step found its items: they start, up to its concurrency (an empty list finishes it at once). */
export function expandMap(ctx: Ctx, node: NodeOf<"map">, ns: NodeState, key: StepKey, items: unknown[]): boolean {
  if (items.length > MAP_MAX_ITEMS) {
    return onFailed(ctx, {
      ...key,
      error: `has ${items.length} items; a map takes at most ${MAP_MAX_ITEMS}`,
      errorClass: "invalid_output",
    });
  }
  const concurrency = mapConcurrency(node, ctx.g.workflow.limits);
  const stepId = mapItemsId(node.id, key.iteration);
  ns.map = { stepId, items, concurrency, next: 0, open: {}, finished: {} };
  ctx.events.push({
    type: "map_started",
    nodeId: node.id,
    iteration: key.iteration,
    stepId,
    total: items.length,
    concurrency,
  });
  return advance(ctx, node, ns);
}

/** Starts items while fewer than `concurrency` are open; finishes the map when all are done. */
function advance(ctx: Ctx, node: NodeOf<"map">, ns: NodeState): boolean {
  const m = ns.map!;
  while (ctx.state.status === "running" && m.next < m.items.length && Object.keys(m.open).length < m.concurrency) {
    if (!takeStep(ctx)) return true;
    const index = m.next;
    m.next += 1;
    m.open[String(index)] = 1;
    ctx.commands.push({
      type: "start_step",
      nodeId: m.stepId,
      kind: node.body.type,
      iteration: index + 1,
      attempt: 1,
      input: itemInput(node.id, m, index),
    });
    ctx.events.push({ type: "step_started", nodeId: m.stepId, iteration: index + 1, attempt: 1, kind: node.body.type });
  }
  if (ctx.state.status === "running" && m.next >= m.items.length && Object.keys(m.open).length === 0)
    complete(ctx, node, ns);
  return true;
}

const itemInput = (mapId: string, m: MapState, index: number) => ({
  via: [],
  item: { map: mapId, index, value: m.items[index] },
});

/** Every item is done: the map's step succeeds with the results in item order and follows `done`. */
function complete(ctx: Ctx, node: NodeOf<"map">, ns: NodeState): void {
  const m = ns.map!;
  const output: MapOutput = { results: [], count: m.items.length, succeeded: 0, failed: 0, errors: [] };
  for (let i = 0; i < m.items.length; i++) {
    const f = m.finished[String(i)];
    if (f?.error === undefined) {
      output.succeeded += 1;
      output.results.push(f?.output ?? null);
      continue;
    }
    output.failed += 1;
    output.errors.push({ index: i, error: f.error });
    if (node.onItemError === "collect") output.results.push({ error: f.error });
  }
  ns.map = undefined;
  const key = { nodeId: node.id, iteration: ns.iteration };
  ctx.events.push({
    type: "step_finished",
    ...key,
    status: "succeeded",
    branch: "done",
    output,
    promptTokens: 0,
    completionTokens: 0,
  });
  proceed(ctx, node, ns, key, output, "done");
}

/** An item result of a step of `stepId`: the map node, its state (copied to change) and the item's index; undefined when stale. */
function openItem(ctx: Ctx, key: StepKey): { node: NodeOf<"map">; ns: NodeState; index: number } | undefined {
  const parsed = parseMapItemsId(key.nodeId);
  const seen = parsed ? ctx.state.nodes[parsed.mapId] : undefined;
  const node = parsed ? ctx.g.node(parsed.mapId) : undefined;
  if (!parsed || !seen || node?.type !== "map" || ctx.state.status !== "running" || seen.phase !== "running")
    return undefined;
  const index = key.iteration - 1;
  if (seen.map?.stepId !== key.nodeId || seen.map.open[String(index)] !== key.attempt) return undefined;
  const ns = nodeState(ctx.state, parsed.mapId);
  const m = ns.map!;
  ns.map = { ...m, open: { ...m.open }, finished: { ...m.finished } };
  return { node, ns, index };
}

/** Whether a node id is that of a map's item steps (their results are the map's to plan). */
export const isItemStep = (nodeId: string): boolean => parseMapItemsId(nodeId) !== null;

type ItemResult = StepKey & { usage?: TokenUsage | undefined; latencyMs?: number | undefined };

export function onItemSucceeded(ctx: Ctx, e: ItemResult & { output: unknown }): boolean {
  const found = openItem(ctx, e);
  if (!found) return false;
  const { node, ns, index } = found;
  const m = ns.map!;
  delete m.open[String(index)];
  m.finished[String(index)] = { output: e.output };
  ctx.events.push({
    type: "step_finished",
    nodeId: e.nodeId,
    iteration: e.iteration,
    attempt: e.attempt,
    status: "succeeded",
    branch: "done",
    output: e.output,
    promptTokens: e.usage?.promptTokens ?? 0,
    completionTokens: e.usage?.completionTokens ?? 0,
    ...(e.latencyMs !== undefined ? { latencyMs: e.latencyMs } : {}),
  });
  return advance(ctx, node, ns);
}

/**
 * An item's step failed (or timed out). A budget hit inside it (`limit`) ends the run (R6). Else
 * `onItemError`: `fail` cancels the open items and fails the map's step through its error policy;
 * `skip` and `collect` record the error and go on with the next items.
 */
export function onItemFailed(
  ctx: Ctx,
  e: ItemResult & { error: string; errorClass: ErrorClass },
  limit: string | undefined,
  status: "failed" | "timed_out",
): boolean {
  const found = openItem(ctx, e);
  if (!found) return false;
  const { node, ns, index } = found;
  const m = ns.map!;
  delete m.open[String(index)];
  m.finished[String(index)] = { error: e.error };
  ctx.events.push({
    type: "step_finished",
    nodeId: e.nodeId,
    iteration: e.iteration,
    attempt: e.attempt,
    status,
    error: e.error,
    errorClass: e.errorClass,
    promptTokens: e.usage?.promptTokens ?? 0,
    completionTokens: e.usage?.completionTokens ?? 0,
    ...(e.latencyMs !== undefined ? { latencyMs: e.latencyMs } : {}),
  });
  if (!limit && node.onItemError !== "fail") return advance(ctx, node, ns);
  const reason = `item ${index + 1} failed: ${e.error}`;
  cancelOpenItems(ctx, ns, reason);
  m.next = m.items.length;
  const mapKey = { nodeId: node.id, iteration: ns.iteration, attempt: ns.attempt };
  return onFailed(ctx, { ...mapKey, error: reason, errorClass: e.errorClass }, limit);
}

/**
 * Cancels the open items of a map (the run ends, or an item failed the map): a cancel_steps
 * command for them and a cancelled step_finished each. Changes `ns.map` in place (the caller owns it).
 */
export function cancelOpenItems(ctx: Ctx, ns: NodeState, reason: string): void {
  const m = ns.map;
  if (!m) return;
  const open = Object.entries(m.open);
  if (open.length === 0) return;
  ns.map = { ...m, open: {} };
  const steps: Extract<PlannerCommand, { type: "cancel_steps" }>["steps"] = [];
  for (const [index, attempt] of open) {
    const iteration = Number(index) + 1;
    steps.push({ nodeId: m.stepId, iteration, attempt, reason });
    ctx.events.push({
      type: "step_finished",
      nodeId: m.stepId,
      iteration,
      attempt,
      status: "cancelled",
      error: `Cancelled: ${reason}`,
      promptTokens: 0,
      completionTokens: 0,
    });
  }
  ctx.commands.push({ type: "cancel_steps", steps });
}

/**
 * R7 for a map whose items run: its open items are started again (attempt + 1), not the map's step.
 * An item already interrupted `maxAttempts` times ends the run failed (D3). Answers the items
 * re-dispatched, or a crash-loop reason.
 */
export function redispatchItems(
  ctx: Ctx,
  mapId: string,
): { redispatched: { nodeId: string; iteration: number; attempt: number }[]; reason?: string } {
  const ns = nodeState(ctx.state, mapId);
  const node = ctx.g.node(mapId);
  const m = ns.map;
  if (!m || node?.type !== "map") return { redispatched: [] };
  ns.map = { ...m, open: { ...m.open } };
  ctx.commands.push({
    type: "adopt_step",
    nodeId: mapId,
    kind: "map",
    iteration: ns.iteration,
    attempt: ns.attempt,
    input: ns.input ?? { via: [] },
  });
  const out: { nodeId: string; iteration: number; attempt: number }[] = [];
  for (const [index, attempt] of Object.entries(m.open)) {
    const iteration = Number(index) + 1;
    if (attempt >= ctx.options.maxAttempts) {
      return {
        redispatched: out,
        reason: `Step "${m.stepId}" (item ${iteration}) was interrupted ${attempt} times; giving up after ${ctx.options.maxAttempts} attempts`,
      };
    }
    ns.map.open[index] = attempt + 1;
    out.push({ nodeId: m.stepId, iteration, attempt: attempt + 1 });
    ctx.commands.push({
      type: "start_step",
      nodeId: m.stepId,
      kind: node.body.type,
      iteration,
      attempt: attempt + 1,
      input: itemInput(mapId, m, Number(index)),
      redispatch: true,
    });
    ctx.events.push({ type: "step_started", nodeId: m.stepId, iteration, attempt: attempt + 1, kind: node.body.type });
  }
  return { redispatched: out };
}

/** Whether a step attempt is still open in `state`: a node's current running step, or an open item of a map. */
export function isOpenStep(state: PlannerState, s: StepKey): boolean {
  if (state.status !== "running") return false;
  const n = state.nodes[s.nodeId];
  if (n) return n.phase === "running" && n.iteration === s.iteration && n.attempt === s.attempt;
  const parsed = parseMapItemsId(s.nodeId);
  const m = parsed ? state.nodes[parsed.mapId] : undefined;
  return m?.phase === "running" && m.map?.stepId === s.nodeId && m.map.open[String(s.iteration - 1)] === s.attempt;
}

/** A map node whose items run: its own step is not re-dispatched on a resume, its items are. */
export const hasOpenItems = (n: NodeState): boolean => n.phase === "running" && n.map !== undefined;
