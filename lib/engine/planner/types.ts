import type { ErrorClass } from "@/lib/workflow/error-policy";
import type { InputRequest, RunEvent, TerminalRunStatus, TokenUsage, WaitRequest } from "../events";
import type { GraphIndex } from "./graph-index";
import type { RunSeed } from "./seed";
import type { Interruption, PlannerState, StepInput } from "./state";

/** Identifies one attempt of one step; results for any other attempt are ignored as stale. */
export interface StepKey {
  nodeId: string;
  iteration: number;
  attempt: number;
}

/** What the driver tells the planner. */
export type PlannerEvent =
  /** First start of a run (no planner state yet). */
  | { type: "run_started"; inputs: Record<string, unknown> }
  /**
   * A worker picked the run up again: steps in flight without a committed result are re-dispatched (R7).
   * `interruptions`: per in-flight node, its interruptions judged by the driver (the latest one
   * included); a node without an entry counts its latest interruption as a crash.
   */
  | { type: "resume"; inputs?: Record<string, unknown>; interruptions?: Record<string, Interruption[]> }
  | ({ type: "step_succeeded"; output: unknown; branch?: string; usage?: TokenUsage; latencyMs?: number } & StepKey)
  /**
   * `limit` set = the executor hit a budget (e.g. maxTurnsPerVisit): the run ends budget_exhausted.
   * Otherwise the node's error policy decides by `errorClass` (default `other`): retry, fallback, error branch or fail.
   */
  | ({
      type: "step_failed";
      error: string;
      errorClass?: ErrorClass;
      limit?: string;
      usage?: TokenUsage;
      latencyMs?: number;
    } & StepKey)
  | ({ type: "step_timed_out"; timeoutMs: number } & StepKey)
  /** A human review asked its question, or a subflow started its child run: the step waits for an answer. */
  | ({ type: "step_waiting"; request: WaitRequest } & StepKey)
  /**
   * A waiting step was answered: by a person (the choice is the branch followed, the answer the
   * step's output), or by its child run's end (`output` is the step's output; `error` fails it).
   */
  | {
      type: "step_answered";
      nodeId: string;
      iteration: number;
      choice: string;
      answer: Record<string, unknown>;
      timedOutAfterMs?: number;
      output?: unknown;
      error?: string;
    }
  /** One model call's usage, reported while the step runs so the shared token budget holds (R6). */
  | ({ type: "tokens_used"; model: string; usage: TokenUsage; latencyMs?: number } & Omit<StepKey, "attempt">)
  /** A step waiting for its error-policy retry is due (its `retryAt` passed): its next try starts. */
  | { type: "retry_due"; nodeId: string; iteration: number; retry: number }
  | { type: "cancel_requested"; reason?: string }
  /** The run's timeout (limits.runTimeoutMs) elapsed. */
  | { type: "deadline"; timeoutMs: number };

export type { InputRequest, WaitRequest };

/** What the planner asks the driver to do. */
export type PlannerCommand =
  /**
   * `retry`: the error-policy retries before this try (absent = 0); a re-dispatch after a crash keeps
   * its try's number and says `redispatch` (it is no new step for maxSteps and the run's step count).
   */
  | {
      type: "start_step";
      nodeId: string;
      kind: string;
      iteration: number;
      attempt: number;
      input: StepInput;
      retry?: number;
      redispatch?: true;
      /** A seeded run's step answered with a recorded result instead of being executed (reuse.ts). */
      reuse?: { output: unknown; branch: string | null };
    }
  | { type: "skip_step"; nodeId: string; kind: string; iteration: number }
  /**
   * The row of a step that stays open across a takeover without running again (a map whose items
   * run, planner/map.ts): written as started by the new owner, so its result can be committed by it.
   */
  | { type: "adopt_step"; nodeId: string; kind: string; iteration: number; attempt: number; input: StepInput }
  /** Abort these in-flight steps (their rows become `cancelled`); the run is ending. */
  | { type: "cancel_steps"; steps: (StepKey & { reason: string })[] }
  | {
      type: "finish_run";
      status: TerminalRunStatus;
      reason: string;
      outputs?: Record<string, unknown>;
      limit?: string;
    };

export interface PlannerOptions {
  /** Attempts a step may take before a crash loop fails the run (D3). Default 3. */
  maxAttempts?: number;
  /** The driver's clock (ms since the epoch): error-policy retries are due at now + their backoff. Default 0. */
  now?: number;
  /** A retry's or fork's results to reuse (reuse.ts); absent for other runs. */
  seed?: RunSeed;
}

/** The planner's answer: the new state, commands to apply and events to append (in this order). */
export interface PlanResult {
  state: PlannerState;
  commands: PlannerCommand[];
  events: RunEvent[];
  /** True when the event did not apply (a stale/duplicate step result): commit nothing for it. */
  ignored: boolean;
}

/** Mutable working set of one planning pass (the planner clones the state first, so it stays pure). */
export interface Ctx {
  g: GraphIndex;
  state: PlannerState;
  commands: PlannerCommand[];
  events: RunEvent[];
  options: { maxAttempts: number; now: number };
  seed?: RunSeed;
  /** Nodes skipped during this pass (reported on branch_taken). */
  skipped: string[];
}
