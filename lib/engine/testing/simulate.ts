import type { ErrorClass } from "@/lib/workflow/error-policy";
import type { Workflow } from "@/lib/workflow/schema";
import type { RunEvent, TokenUsage } from "../events";
import {
  plan,
  type PlannerCommand,
  type PlannerEvent,
  type PlannerOptions,
  type PlannerState,
  type StepInput,
} from "../planner";

/**
 * A pure planner harness: feeds the planner's start_step commands to a scripted behaviour and the
 * results back, in start order, until the run finishes. No driver, no I/O: what the planner decides.
 * Time is virtual: it starts at 0 and, when nothing is pending but steps wait for their error-policy
 * retries, jumps to the first one due (retry_due).
 */

/** What a simulated step does. */
export type SimOutcome =
  | { output?: unknown; branch?: string; tokens?: TokenUsage }
  | { fail: string; limit?: string; errorClass?: ErrorClass }
  | { timeout: number }
  /** The step never reports (a hung or crashed worker). */
  | { hang: true };

export interface SimStep {
  nodeId: string;
  iteration: number;
  attempt: number;
  input: StepInput;
  /** Error-policy retries before this try. */
  retry: number;
  /** The virtual time it started at. */
  at: number;
  /** A seeded run's step answered with a recorded result (not given to `behave`). */
  reuse?: { output: unknown; branch: string | null };
}

export interface SimResult {
  finish: Extract<PlannerCommand, { type: "finish_run" }> | undefined;
  /** Node ids of the start_step commands of each planning pass (a pass = one event). */
  waves: string[][];
  steps: SimStep[];
  skipped: string[];
  events: RunEvent[];
  state: PlannerState;
}

/** Runs the planner until the run finishes or nothing is pending; `behave` scripts each step. */
export function simulate(
  workflow: Workflow,
  behave: (step: SimStep, runCount: number) => SimOutcome,
  first: PlannerEvent = { type: "run_started", inputs: {} },
  initial: PlannerState | null = null,
  options: Pick<PlannerOptions, "seed"> = {},
): SimResult {
  const out: SimResult = {
    finish: undefined,
    waves: [],
    steps: [],
    skipped: [],
    events: [],
    state: initial as PlannerState,
  };
  const pending: SimStep[] = [];
  const counts = new Map<string, number>();
  let state = initial;
  let now = 0;
  const feed = (event: PlannerEvent) => {
    // every state the planner is given is frozen, so a planning step that changed a node it shares
    // with the state it was given (copy-on-write, planner/state.ts) throws here
    const r = plan(workflow, state && deepFreeze(state), event, { now, ...options });
    state = r.state;
    out.state = r.state;
    out.events.push(...r.events);
    const wave: string[] = [];
    for (const c of r.commands) {
      if (c.type === "start_step") {
        const step = {
          nodeId: c.nodeId,
          iteration: c.iteration,
          attempt: c.attempt,
          input: c.input,
          retry: c.retry ?? 0,
          at: now,
          ...(c.reuse ? { reuse: c.reuse } : {}),
        };
        pending.push(step);
        out.steps.push(step);
        wave.push(c.nodeId);
      } else if (c.type === "skip_step") out.skipped.push(c.nodeId);
      else if (c.type === "finish_run") out.finish = c;
    }
    out.waves.push(wave);
  };
  /** Jumps to the first retry due and plans it; false when no step waits for one. */
  const dueRetry = (): boolean => {
    const waiting = Object.entries(state?.nodes ?? {}).filter(([, n]) => n.phase === "retrying");
    const [nodeId, n] = waiting.sort(([, a], [, b]) => (a.retryAt ?? 0) - (b.retryAt ?? 0))[0] ?? [];
    if (!nodeId || !n || n.retry === undefined) return false;
    now = Math.max(now, n.retryAt ?? 0);
    feed({ type: "retry_due", nodeId, iteration: n.iteration, retry: n.retry });
    return true;
  };
  feed(first);
  for (let step = pending.shift(); !out.finish; step = pending.shift()) {
    if (!step) {
      if (dueRetry()) continue;
      break;
    }
    if (step.reuse) {
      // a seeded run's reused step answers with its recorded result (the driver does the same)
      feed({
        type: "step_succeeded",
        nodeId: step.nodeId,
        iteration: step.iteration,
        attempt: step.attempt,
        output: step.reuse.output,
        ...(step.reuse.branch !== null ? { branch: step.reuse.branch } : {}),
      });
      continue;
    }
    const n = (counts.get(step.nodeId) ?? 0) + 1;
    counts.set(step.nodeId, n);
    const o = behave(step, n);
    const key = { nodeId: step.nodeId, iteration: step.iteration, attempt: step.attempt };
    if ("hang" in o) continue;
    if ("fail" in o)
      feed({
        type: "step_failed",
        ...key,
        error: o.fail,
        ...(o.limit ? { limit: o.limit } : {}),
        ...(o.errorClass ? { errorClass: o.errorClass } : {}),
      });
    else if ("timeout" in o) feed({ type: "step_timed_out", ...key, timeoutMs: o.timeout });
    else {
      if (o.tokens)
        feed({ type: "tokens_used", nodeId: step.nodeId, iteration: step.iteration, model: "m", usage: o.tokens });
      if (out.finish) break;
      feed({
        type: "step_succeeded",
        ...key,
        output: o.output ?? `${step.nodeId}#${step.iteration}`,
        ...(o.branch ? { branch: o.branch } : {}),
      });
    }
  }
  return out;
}

/** How many steps each node started. */
export function countSteps(steps: SimStep[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of steps) counts[s.nodeId] = (counts[s.nodeId] ?? 0) + 1;
  return counts;
}

/** Freezes `value` and everything it holds (a planner state is plain JSON-like data). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}
