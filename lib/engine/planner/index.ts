import type { Workflow } from "@/lib/workflow/schema";
import { isSubflowRequest } from "../events";
import { startNode } from "./activation";
import { addTokens, exhaust, finish, settle } from "./budgets";
import { onFailed, onRetryDue, startNextAttempt } from "./failures";
import { indexWorkflow } from "./graph-index";
import { crashLoopReason, recordInterruption } from "./interruptions";
import {
  expandMap,
  hasOpenItems,
  isItemStep,
  isMapExpansion,
  onItemFailed,
  onItemSucceeded,
  redispatchItems,
} from "./map";
import { current, proceed } from "./results";
import { copyState, nodeState, plannerStateSchema, type NodeState, type PlannerState, type StepInput } from "./state";
import type { Ctx, PlannerEvent, PlannerOptions, PlanResult } from "./types";

export type {
  InputRequest,
  WaitRequest,
  PlannerEvent,
  PlannerCommand,
  PlanResult,
  PlannerOptions,
  StepKey,
} from "./types";
export {
  isBusy,
  nodeStateSchema,
  parsePlannerState,
  plannerStateSchema,
  stepInputSchema,
  type Interruption,
  type PlannerState,
  type StepInput,
} from "./state";
export { earlierInterruptions, interruptionCap } from "./interruptions";
export { hasOpenItems, isOpenStep } from "./map";
export { hasReusableResult, seedFromSteps, seedKey, type SeedEdit, type SeedSource } from "./reuse";
export { runSeedSchema, type ReusedStep, type RunSeed } from "./seed";

/**
 * The planner: PURE `(workflow, state, event) → {state, commands, events}` implementing R1–R9.
 * It never performs I/O; the driver commits its result (state + step rows + events in one
 * transaction) and then performs the commands. `state` is null before the run started.
 */
export function plan(
  workflow: Workflow,
  state: PlannerState | null,
  event: PlannerEvent,
  options: PlannerOptions = {},
): PlanResult {
  const ctx: Ctx = {
    g: indexWorkflow(workflow),
    state: state ? copyState(state) : plannerStateSchema.parse({}),
    commands: [],
    events: [],
    options: { maxAttempts: options.maxAttempts ?? 3, now: options.now ?? 0 },
    ...(options.seed ? { seed: options.seed } : {}),
    skipped: [],
  };
  const applied = apply(ctx, event);
  return { state: ctx.state, commands: ctx.commands, events: ctx.events, ignored: !applied };
}

function apply(ctx: Ctx, event: PlannerEvent): boolean {
  switch (event.type) {
    case "run_started":
      return onRunStarted(ctx, event.inputs);
    case "resume":
      return onResume(ctx, event);
    case "step_succeeded":
      return isItemStep(event.nodeId) ? onItemSucceeded(ctx, event) : onSucceeded(ctx, event);
    case "step_failed":
      if (isItemStep(event.nodeId))
        return onItemFailed(ctx, { ...event, errorClass: event.errorClass ?? "other" }, event.limit, "failed");
      return onFailed(ctx, { ...event, errorClass: event.errorClass ?? "other" }, event.limit);
    case "step_timed_out": {
      const timedOut = { ...event, error: `timed out after ${event.timeoutMs} ms`, errorClass: "timeout" as const };
      if (isItemStep(event.nodeId)) return onItemFailed(ctx, timedOut, undefined, "timed_out");
      return onFailed(ctx, timedOut, undefined, "timed_out");
    }
    case "retry_due":
      return onRetryDue(ctx, event);
    case "step_waiting":
      return onWaiting(ctx, event);
    case "step_answered":
      return onAnswered(ctx, event);
    case "tokens_used": {
      if (ctx.state.status !== "running") return false;
      addTokens(ctx, event.usage);
      const t = ctx.state.tokens;
      ctx.events.splice(0, 0, {
        type: "tokens_used",
        nodeId: event.nodeId,
        iteration: event.iteration,
        model: event.model,
        ...event.usage,
        ...(event.latencyMs !== undefined ? { latencyMs: event.latencyMs } : {}),
        runPromptTokens: t.promptTokens,
        runCompletionTokens: t.completionTokens,
      });
      return true;
    }
    case "cancel_requested":
      if (ctx.state.status !== "running") return false;
      ctx.events.push({ type: "cancel_requested", ...(event.reason ? { reason: event.reason } : {}) });
      finish(ctx, "cancelled", event.reason ? `Cancelled: ${event.reason}` : "Cancelled by request");
      return true;
    case "deadline":
      if (ctx.state.status !== "running") return false;
      exhaust(ctx, "runTimeoutMs", `runTimeoutMs (${event.timeoutMs}) elapsed`);
      return true;
  }
}

function onRunStarted(ctx: Ctx, inputs: Record<string, unknown>): boolean {
  if (Object.keys(ctx.state.nodes).length > 0) return false;
  ctx.events.push({ type: "run_started", inputs, resumed: false, redispatched: [] });
  const starts = ctx.g.workflow.nodes.filter((n) => n.type === "start");
  const start = starts[0];
  if (!start || starts.length > 1) {
    finish(ctx, "failed", `The workflow must have exactly one start node (found ${starts.length})`);
    return true;
  }
  startNode(ctx, start.id, { via: [] });
  return true;
}

/**
 * R7: steps in flight when the previous worker stopped are re-dispatched (attempt + 1); committed ones
 * are not. D3: a step interrupted too often ends the run `failed` instead (see interruptions.ts).
 */
function onResume(ctx: Ctx, event: Extract<PlannerEvent, { type: "resume" }>): boolean {
  const inputs = event.inputs ?? {};
  if (ctx.state.status !== "running") return false;
  // a map whose items run is not in flight itself: its open items are (map.ts)
  const maps = Object.entries(ctx.state.nodes)
    .filter(([, n]) => hasOpenItems(n))
    .map(([nodeId]) => nodeId);
  const inFlight = Object.entries(ctx.state.nodes)
    .filter(([, n]) => n.phase === "running" && !hasOpenItems(n))
    .map(([nodeId]) => [nodeId, nodeState(ctx.state, nodeId)] as const);
  const started = {
    type: "run_started" as const,
    inputs,
    resumed: true,
    redispatched: inFlight.map(([nodeId, n]) => ({ nodeId, iteration: n.iteration, attempt: n.attempt + 1 })),
  };
  ctx.events.push(started);
  for (const mapId of maps) {
    const items = redispatchItems(ctx, mapId);
    started.redispatched.push(...items.redispatched);
    if (items.reason) {
      finish(ctx, "failed", items.reason);
      return true;
    }
  }
  for (const [nodeId, n] of inFlight) n.interruptions = recordInterruption(n, event.interruptions?.[nodeId]);
  for (const [nodeId, n] of inFlight) {
    const reason = crashLoopReason(nodeId, n, ctx.options.maxAttempts);
    if (reason) {
      finish(ctx, "failed", reason);
      return true;
    }
  }
  for (const [nodeId, n] of inFlight) {
    const kind = ctx.g.node(nodeId)?.type ?? "unknown";
    n.attempt += 1;
    const input = n.input ?? { via: [] };
    const retry = n.retry !== undefined ? { retry: n.retry } : {};
    ctx.commands.push({
      type: "start_step",
      nodeId,
      kind,
      iteration: n.iteration,
      attempt: n.attempt,
      input,
      ...retry,
      redispatch: true,
    });
    ctx.events.push({ type: "step_started", nodeId, iteration: n.iteration, attempt: n.attempt, kind, ...retry });
  }
  settle(ctx);
  return true;
}

function onSucceeded(ctx: Ctx, e: Extract<PlannerEvent, { type: "step_succeeded" }>): boolean {
  const ns = current(ctx, e);
  const node = ctx.g.node(e.nodeId);
  if (!ns || !node) return false;
  // a map's step found its items: they run now; the map's own result comes when they are done
  if (node.type === "map" && !ns.map && isMapExpansion(e.output)) return expandMap(ctx, node, ns, e, e.output.mapItems);
  const outcomes = ctx.g.outcomes(e.nodeId);
  const chosen = e.branch ?? (outcomes.length === 1 ? outcomes[0] : undefined);
  if (outcomes.length > 0 && (chosen === undefined || !outcomes.includes(chosen))) {
    const got = chosen === undefined ? "no branch" : `unknown branch "${chosen}"`;
    return onFailed(ctx, {
      ...e,
      error: `chose ${got} (declared: ${outcomes.join(", ")})`,
      errorClass: "invalid_output",
    });
  }
  ctx.events.push({
    type: "step_finished",
    nodeId: e.nodeId,
    iteration: e.iteration,
    status: "succeeded",
    ...(chosen !== undefined ? { branch: chosen } : {}),
    output: e.output,
    promptTokens: e.usage?.promptTokens ?? 0,
    completionTokens: e.usage?.completionTokens ?? 0,
    ...(e.latencyMs !== undefined ? { latencyMs: e.latencyMs } : {}),
  });
  return proceed(ctx, node, ns, e, e.output, chosen);
}

/** A human review asked its question, or a subflow started its child run: the node waits (it holds no worker); the run goes on with whatever else runs. */
function onWaiting(ctx: Ctx, e: Extract<PlannerEvent, { type: "step_waiting" }>): boolean {
  const ns = current(ctx, e);
  if (!ns) return false;
  ns.phase = "waiting";
  const r = e.request;
  const step = { nodeId: e.nodeId, iteration: e.iteration };
  if (isSubflowRequest(r)) {
    ctx.events.push({
      type: "subflow_started",
      ...step,
      runId: r.runId,
      workflowId: r.workflowId,
      workflowName: r.workflowName,
      ...(r.timeoutMs !== undefined ? { timeoutMs: r.timeoutMs } : {}),
    });
  } else {
    ctx.events.push({
      type: "input_requested",
      ...step,
      prompt: r.prompt,
      choices: r.choices,
      fields: r.fields,
      ...(r.timeoutMs !== undefined ? { timeoutMs: r.timeoutMs } : {}),
      ...(r.timeoutChoice !== undefined ? { timeoutChoice: r.timeoutChoice } : {}),
      ...(r.tool !== undefined ? { tool: r.tool } : {}),
    });
  }
  settle(ctx);
  return true;
}

/**
 * A waiting step was answered. A person's answer to a human review: it succeeds with the answer as
 * its output and the choice as its branch (an unknown choice fails the step, like any step choosing
 * an undeclared branch). A subflow's child run ended: its outputs are the step's output, or its
 * failure fails the step. Answers for a node that is not waiting at that iteration (answered twice,
 * or the run ended) are ignored. A step nobody answered in time (`timedOutAfterMs`) takes its
 * timeout choice, or times out without one.
 */
function onAnswered(ctx: Ctx, e: Extract<PlannerEvent, { type: "step_answered" }>): boolean {
  const seen = ctx.state.nodes[e.nodeId];
  if (ctx.state.status !== "running" || !seen || seen.phase !== "waiting" || seen.iteration !== e.iteration)
    return false;
  const ns = nodeState(ctx.state, e.nodeId);
  ns.phase = "running";
  const key = { nodeId: e.nodeId, iteration: e.iteration, attempt: ns.attempt };
  // nobody answered in time and the step names no choice for that: the step times out
  if (e.timedOutAfterMs !== undefined && e.choice === "") {
    const what = ctx.g.node(e.nodeId)?.type === "subflow" ? "its subflow's run did not end" : "no answer";
    return onFailed(
      ctx,
      { ...key, error: `${what} within ${e.timedOutAfterMs} ms`, errorClass: "timeout" },
      undefined,
      "timed_out",
    );
  }
  if (e.error !== undefined) return onFailed(ctx, { ...key, error: e.error, errorClass: "other" });
  // an agent waited for the approval of a tool it wrote: the step goes on with the answer
  if (ctx.g.node(e.nodeId)?.type === "agent") return continueStep(ctx, ns, e);
  return onSucceeded(ctx, {
    type: "step_succeeded",
    ...key,
    output: e.output !== undefined ? e.output : e.answer,
    branch: e.choice,
    latencyMs: 0,
  });
}

/**
 * An agent step that waited for a tool approval continues as the next attempt of the same try,
 * with the answer in its input (`approval`): like a re-dispatch, it is no new step for maxSteps, and
 * its executor replays what it recorded before the wait (model turns, the tool's rounds) instead of
 * repeating it.
 */
function continueStep(ctx: Ctx, ns: NodeState, e: Extract<PlannerEvent, { type: "step_answered" }>): boolean {
  const comment = typeof e.answer.comment === "string" ? { comment: e.answer.comment } : {};
  const input: StepInput = { ...(ns.input ?? { via: [] }), approval: { choice: e.choice, ...comment } };
  ns.input = input;
  startNextAttempt(ctx, e.nodeId, e.iteration, input, { ...(ns.retry ? { retry: ns.retry } : {}), redispatch: true });
  return true;
}

export { nodeState };
