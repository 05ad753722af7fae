import { stepNode } from "@/lib/workflow/map";
import { NO_LIVE_TEXT, stepLiveText, type StepLive } from "./live-text";
import type { Workflow } from "@/lib/workflow/schema";
import type { TemplateContext } from "@/lib/workflow/template";
import type { RunEvent } from "../events";
import { errorClassOf } from "../executors/common";
import type { ExecutorRegistry, InstantExecutor, StepContext, StepOutcome } from "../executors/types";
import type { PlannerCommand, PlannerEvent } from "../planner";
import { memoryMemo, type EnginePorts, type JobTrace, type MemoPort, type StepTrace } from "../ports";
import { tracedModel, tracedTools } from "./traced";
import { StepAbort } from "../errors";

/** One step being executed. `settled` = its result was already decided (result, timeout or abort). */
export interface Flight {
  controller: AbortController;
  settled: boolean;
  done: Promise<void>;
}

/** What a step needs from its session. */
export interface StepHost {
  runId: string;
  workflow: Workflow;
  ports: EnginePorts;
  executors: ExecutorRegistry;
  /** Aborted when the job ends: stops timers. */
  jobSignal: AbortSignal;
  /** The job's spans (ports.trace); absent: nothing is traced. */
  trace?: JobTrace;
  post(item: { t: "plan"; event: PlannerEvent } | { t: "emit"; event: RunEvent }): void;
}

type StartStep = Extract<PlannerCommand, { type: "start_step" }>;

/**
 * Starts one step: runs the node kind's executor with its own context (no shared memory between
 * branches), arms the per-step timeout, and posts exactly one of succeeded / failed / timed_out
 * to the session's mailbox — unless the step was aborted first, in which case its result is dropped.
 */
export function startStep(host: StepHost, cmd: StartStep, data: TemplateContext): Flight {
  const controller = new AbortController();
  const flight: Flight = { controller, settled: false, done: Promise.resolve() };
  const key = { nodeId: cmd.nodeId, iteration: cmd.iteration, attempt: cmd.attempt };
  const node = stepNode(host.workflow, cmd.nodeId);
  const span = host.trace?.step({ ...key, kind: cmd.kind });
  const settle = (event: PlannerEvent) => {
    if (flight.settled) return;
    flight.settled = true;
    if (span) endSpan(span, event);
    host.post({ t: "plan", event });
  };
  const stopTimer = node?.timeoutMs
    ? armTimeout(host, node.timeoutMs, () => {
        settle({ type: "step_timed_out", ...key, timeoutMs: node.timeoutMs ?? 0 });
        controller.abort(new StepAbort("timed_out"));
      })
    : undefined;
  const live = stepLiveText(host.ports.live, { runId: host.runId, ...key }, () => !flight.settled);
  const ctx = stepContext(host, cmd, data, controller.signal, () => !flight.settled, live, span);
  flight.done = execute(host, ctx, node === undefined)
    .then((o) => settle(toEvent(o, key)))
    .finally(() => {
      stopTimer?.();
      live.close();
      // aborted before it answered (cancel, lost lease, handed back): the span still ends
      if (!flight.settled) span?.end("cancelled");
    });
  return flight;
}

/**
 * Runs an instant step (a node kind whose executor does no I/O: start, end, abort, human) right away
 * and answers its result event, so the driver commits the step's start and result in one transaction
 * (both before anything depending on it runs). Synchronous: no await lets other work (the queue's,
 * the wake-ups') in between a batch's planning and its commit. No timeout or abort applies: it
 * cannot block. A throw becomes a failed step, as in `execute`.
 */
export function runInstantStep(
  host: StepHost,
  cmd: StartStep,
  data: TemplateContext,
  run: InstantExecutor,
): PlannerEvent {
  const key = { nodeId: cmd.nodeId, iteration: cmd.iteration, attempt: cmd.attempt };
  if (!host.workflow.nodes.some((n) => n.id === cmd.nodeId)) return toEvent(failed(NODE_MISSING), key);
  const ctx = stepContext(host, cmd, data, NEVER_ABORTED, () => true);
  let event: PlannerEvent;
  try {
    event = toEvent(run(ctx), key);
  } catch (err) {
    event = toEvent(failed(err), key);
  }
  const span = host.trace?.step({ ...key, kind: cmd.kind });
  if (span) endSpan(span, event);
  return event;
}

/** Ends a step's span with its result event. */
function endSpan(span: StepTrace, event: PlannerEvent): void {
  if (event.type === "step_succeeded") span.end("succeeded");
  else if (event.type === "step_failed") span.end("failed", event.error);
  else if (event.type === "step_waiting") span.end("waiting");
  else if (event.type === "step_timed_out") span.end("timed_out", `timed out after ${event.timeoutMs} ms`);
  else span.end(event.type);
}

/** Ports without a durable memo get one in memory, shared by every job run with them. */
const memos = new WeakMap<EnginePorts, MemoPort>();
const memoOf = (ports: EnginePorts): MemoPort => {
  let memo = memos.get(ports);
  if (!memo) memos.set(ports, (memo = memoryMemo()));
  return memo;
};

/** The signal of an instant step, which nothing aborts. */
const NEVER_ABORTED = new AbortController().signal;

function stepContext(
  host: StepHost,
  cmd: StartStep,
  data: TemplateContext,
  signal: AbortSignal,
  live: () => boolean,
  text: StepLive = NO_LIVE_TEXT,
  span?: StepTrace,
): StepContext {
  // a map's item step runs the map's body (lib/workflow/map.ts stepNode)
  const node = stepNode(host.workflow, cmd.nodeId);
  let logger: StepContext["logger"] | undefined;
  return {
    runId: host.runId,
    workflow: host.workflow,
    node,
    iteration: cmd.iteration,
    attempt: cmd.attempt,
    retry: cmd.retry ?? 0,
    input: cmd.input,
    data,
    signal,
    model: span ? tracedModel(host.ports.model, span) : host.ports.model,
    tools: span ? tracedTools(host.ports.tools, span) : host.ports.tools,
    memo: host.ports.memo ?? memoOf(host.ports),
    ...(host.ports.subflows ? { subflows: host.ports.subflows } : {}),
    // made when an executor first logs (most steps never do)
    get logger() {
      return (logger ??= host.ports.logger.child({ runId: host.runId, nodeId: cmd.nodeId, iteration: cmd.iteration }));
    },
    live: text,
    emit: (event) => live() && host.post({ t: "emit", event }),
    reportUsage: (model, usage, latencyMs) =>
      live() &&
      host.post({
        t: "plan",
        event: { type: "tokens_used", nodeId: cmd.nodeId, iteration: cmd.iteration, model, usage, latencyMs },
      }),
  } as StepContext;
}

/** A plain (non-DOMException) reason: aborting with none would build a DOMException with a stack per step. */
const TIMER_DONE = Object.freeze({ reason: "step finished" });

/** Starts the per-step timeout; returns the function that disarms it. Ends with the job too. */
function armTimeout(host: StepHost, ms: number, onTimeout: () => void): () => void {
  const timer = new AbortController();
  const onJobEnd = () => timer.abort(TIMER_DONE);
  host.jobSignal.addEventListener("abort", onJobEnd, { once: true });
  host.ports.clock.sleep(ms, timer.signal).then(onTimeout, () => undefined);
  return () => {
    host.jobSignal.removeEventListener("abort", onJobEnd);
    timer.abort(TIMER_DONE);
  };
}

async function execute(host: StepHost, ctx: StepContext, missing: boolean): Promise<StepOutcome> {
  if (missing) return failed(NODE_MISSING);
  const started = host.ports.clock.now();
  try {
    const run = host.executors[ctx.node.type] as (c: StepContext) => Promise<StepOutcome>;
    return await run(ctx);
  } catch (err) {
    return failed(err, host.ports.clock.now() - started);
  }
}

const NODE_MISSING = "node not found in the workflow";

/** A step that failed before its executor answered: a thrown error (its message) or a reason, no usage. */
function failed(err: unknown, latencyMs = 0): StepOutcome {
  const error = err instanceof Error ? err.message : String(err);
  return {
    status: "failed",
    error,
    errorClass: errorClassOf(err),
    usage: { promptTokens: 0, completionTokens: 0 },
    latencyMs,
  };
}

function toEvent(o: StepOutcome, key: { nodeId: string; iteration: number; attempt: number }): PlannerEvent {
  if (o.status === "waiting") return { type: "step_waiting", ...key, request: o.request };
  const common = { ...key, usage: o.usage, latencyMs: Math.max(0, Math.round(o.latencyMs)) };
  return o.status === "succeeded"
    ? { type: "step_succeeded", ...common, output: o.output, ...(o.branch !== undefined ? { branch: o.branch } : {}) }
    : {
        type: "step_failed",
        ...common,
        error: o.error,
        ...(o.errorClass ? { errorClass: o.errorClass } : {}),
        ...(o.limit ? { limit: o.limit } : {}),
      };
}
