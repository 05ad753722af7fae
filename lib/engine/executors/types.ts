import type { TemplateContext } from "@/lib/workflow/template";
import type { ErrorClass } from "@/lib/workflow/error-policy";
import type { NodeKind, NodeOf, Workflow } from "@/lib/workflow/schema";
import type { RunEvent, TokenUsage } from "../events";
import type { StepInput, WaitRequest } from "../planner";
import type { StepLive } from "../driver/live-text";
import type { Logger, MemoPort, ModelPort, SubflowsPort, ToolsPort } from "../ports";

/**
 * What an executor gets for one step (kind-independent part). Each step gets its own context and builds its own messages:
 * parallel branches never share agent memory (R2).
 */
export interface StepEnv {
  runId: string;
  workflow: Workflow;
  /** The node being executed (StepContext narrows it to its kind). */
  node: { id: string };
  iteration: number;
  attempt: number;
  /** Error-policy retries before this try (0 = the first try); side effects are keyed per try (effectKey). */
  retry: number;
  input: StepInput;
  /** Template data as of the step's start: run inputs, variables, latest node outputs, feedback. */
  data: TemplateContext;
  /** Aborted on cancel, step timeout, run deadline, budget exhaustion or lost lease. */
  signal: AbortSignal;
  model: ModelPort;
  tools: ToolsPort;
  /** Durable step memo: what a step records to replay instead of repeating (model turns of agents that create tools, tool rounds). */
  memo: MemoPort;
  /** Child runs (subflow nodes); absent where the engine runs without them. */
  subflows?: SubflowsPort;
  logger: Logger;
  /** The step's live text: pass `live.call()`'s handlers to each model call (ephemeral, never stored). */
  live: StepLive;
  /** Appends a visible event (step_progress, handoff); committed to the log in order. */
  emit(event: Extract<RunEvent, { type: "step_progress" | "handoff" }>): void;
  /** Reports one model call's usage at once, so the shared token budget is enforced mid-step (R6). */
  reportUsage(model: string, usage: TokenUsage, latencyMs: number): void;
}

/** The context of a step of node kind K. Helpers shared by kinds take the kind-free StepEnv. */
export interface StepContext<K extends NodeKind = NodeKind> extends StepEnv {
  node: NodeOf<K>;
}

/**
 * How a step ended. `limit` on a failure names a budget (e.g. maxTurnsPerVisit): the run ends
 * budget_exhausted. `waiting`: a human review asked its question (a person's answer ends it later),
 * or a subflow started its child run (the child's end ends it).
 */
export type StepOutcome =
  | { status: "succeeded"; output: unknown; branch?: string; usage: TokenUsage; latencyMs: number }
  | { status: "waiting"; request: WaitRequest; usage: TokenUsage; latencyMs: number }
  | { status: "failed"; error: string; errorClass?: ErrorClass; limit?: string; usage: TokenUsage; latencyMs: number };

/** Runs one node kind. Throwing is allowed: the driver turns it into a failed step with the message. */
export type Executor<K extends NodeKind = NodeKind> = (ctx: StepContext<K>) => Promise<StepOutcome>;

/**
 * A node kind whose default executor does no I/O (start, end, abort, human): it answers at once,
 * without a promise, so the driver runs its step inside the batch that starts it (no await between).
 */
export type InstantExecutor<K extends NodeKind = NodeKind> = (ctx: StepContext<K>) => StepOutcome;

/** The kinds with an InstantExecutor. */
export type InstantKind = "start" | "end" | "abort" | "human" | "map";

/** One executor per node kind; a half-added kind fails to compile (house rule 4). */
export type ExecutorRegistry = { [K in NodeKind]: Executor<K> };

/** Adds usage `b` into `a` (mutates and returns `a`). */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  a.promptTokens += b.promptTokens;
  a.completionTokens += b.completionTokens;
  return a;
}

/** A zero usage record. */
export const noUsage = (): TokenUsage => ({ promptTokens: 0, completionTokens: 0 });
