import type { LiveTextPort } from "./live-text";
import type { Logger } from "@/lib/logger";
import type { LivenessPort } from "./liveness";
import type { MemoPort } from "./memo";
import type { TracePort } from "./trace";
import type { ModelPort } from "./model";
import type { StoredEvent, StorePort } from "./store";
import type { SubflowsPort } from "./subflows";
import type { ToolsPort } from "./tools";

/** Event publication, queue, clock and the bundle of all ports. */

/**
 * Called after a commit succeeded with the events it stored (never before: stored before sent, R8).
 * Best effort (e.g. Redis PUBLISH / XADD as a wake-up); a failure is logged and never fails the run,
 * because viewers replay from the store by seq.
 */
export interface EventsPort {
  published(runId: string, events: StoredEvent[]): Promise<void> | void;
}

/** Why the engine enqueues a run job (matches lib/queue runJobReasons). */
export type EnqueueReason = "start" | "resume" | "cancel" | "reconcile" | "retry";

/** Dispatch of run jobs (BullMQ in production). The engine enqueues a resume after a hand-back. */
export interface QueuePort {
  enqueueRun(runId: string, reason: EnqueueReason): Promise<void>;
  /**
   * A job for the run in `delayMs` (a run whose steps wait for their error-policy retries sleeps
   * until the first is due instead of holding a worker). Without it such a run is held meanwhile.
   */
  enqueueRunLater?(runId: string, reason: EnqueueReason, delayMs: number): Promise<void>;
}

/** Time, injectable so tests can control deadlines. */
export interface ClockPort {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** All ports a run job needs. `queue`/`events`/`liveness` are optional (tests may omit them). */
export interface EnginePorts {
  store: StorePort;
  model: ModelPort;
  tools: ToolsPort;
  clock: ClockPort;
  logger: Logger;
  queue?: QueuePort;
  events?: EventsPort;
  /** Worker liveness for the crash-loop rule; without it every interruption counts as a crash. */
  liveness?: LivenessPort;
  /** Child runs for subflow nodes; without it a subflow step fails. */
  subflows?: SubflowsPort;
  /** Live text of running steps (tokens as they arrive, ephemeral); without it nothing is streamed. */
  live?: LiveTextPort;
  /** Durable step memo (model turns and tool rounds of agents that create tools); without it one per job, in memory. */
  memo?: MemoPort;
  /** Spans of the run's jobs, steps, model and tool calls (OpenTelemetry); without it nothing is traced. */
  trace?: TracePort;
}
