import type { Interruption, NodeState } from "./state";

/**
 * The crash-loop rule (D3) on resume (R7). A step in flight when its run was taken over was
 * interrupted; the driver judges each interruption by its worker's liveness (driver/takeover.ts):
 * only `crashed` ones (the worker died) count toward `maxAttempts`. A takeover from a worker that
 * was still alive (it lost its queue lock while CPU-starved or frozen, or handed the step back on
 * shutdown) is re-dispatched without counting, up to interruptionCap(maxAttempts) interruptions in
 * all, so a step that keeps outliving its lock cannot retry forever either.
 */

/** Interruptions of one step (crashes and takeovers together) after which the run fails anyway: max(10, 3 × maxAttempts). */
export const interruptionCap = (maxAttempts: number): number => Math.max(10, 3 * maxAttempts);

/** A crash of the node's current attempt recorded without liveness information. */
const crash = (n: NodeState, attempt: number): Interruption => ({
  iteration: n.iteration,
  attempt,
  owner: null,
  since: 0,
  verdict: "crashed",
});

/**
 * The current iteration's interruptions before this resume. State written before interruptions were
 * recorded has none: each earlier attempt of the step then counts as a crash (the old rule), except
 * the attempts its error-policy retries started.
 */
export function earlierInterruptions(n: NodeState): Interruption[] {
  // error-policy retries also move the attempt; they were no interruptions
  if (!n.interruptions)
    return Array.from({ length: Math.max(0, n.attempt - 1 - (n.retry ?? 0)) }, (_, k) => crash(n, k + 1));
  return n.interruptions.filter((i) => i.iteration === n.iteration);
}

/**
 * The node's interruptions after this resume: the driver's judged list when given, else the
 * earlier ones plus the latest attempt counted as a crash (no liveness known, e.g. no liveness port).
 */
export function recordInterruption(n: NodeState, judged: Interruption[] | undefined): Interruption[] {
  return judged ?? [...earlierInterruptions(n), crash(n, n.attempt)];
}

/** Why the step must not run again, or null: `maxAttempts` crashes, or interruptionCap interruptions in all. */
export function crashLoopReason(nodeId: string, n: NodeState, maxAttempts: number): string | null {
  const all = (n.interruptions ?? []).filter((i) => i.iteration === n.iteration);
  const crashes = all.filter((i) => i.verdict === "crashed").length;
  const takeovers = all.filter((i) => i.verdict === "alive").length;
  const step = `Step "${nodeId}" (iteration ${n.iteration})`;
  if (crashes >= maxAttempts) {
    const notCounted =
      takeovers > 0 ? `; ${takeovers} takeover${takeovers === 1 ? "" : "s"} from live workers not counted` : "";
    return `${step} was interrupted ${crashes} times; giving up after ${maxAttempts} attempts (its worker died each time${notCounted})`;
  }
  const cap = interruptionCap(maxAttempts);
  if (all.length >= cap) {
    return `${step} was interrupted ${all.length} times (${crashes} worker crashes, ${takeovers} takeovers from live workers that lost their queue lock); giving up after ${cap} interruptions`;
  }
  return null;
}
