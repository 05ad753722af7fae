import {
  earlierInterruptions,
  hasOpenItems,
  type Interruption,
  type PlannerEvent,
  type PlannerState,
} from "../planner";
import type { EnginePorts, LivenessPort, RunSnapshot, WorkerSighting } from "../ports";

/**
 * Taking over a run whose steps were in flight (R7): each such step was interrupted, and whether
 * that counts toward the crash-loop cap (D3) depends on whether its worker died. The worker is
 * judged by its heartbeat (LivenessPort): it beat again after the takeover, shut down gracefully or
 * is this very worker → `alive` (a false stall: it only lost its queue lock); silent for
 * `deadAfterMs` → `crashed`; otherwise `pending`, judged again at the next resume. Nothing waits
 * for a verdict unless it decides the run: when the pending ones could complete a crash loop, the
 * resume waits (polling, at most deadAfterMs + pollMs, or until `stop`) until they are known.
 */

type Verdict = Interruption["verdict"];

/** The verdict on one interruption given what is known of its worker now. */
export function judge(i: Interruption, seen: WorkerSighting | undefined, now: number, deadAfterMs: number): Verdict {
  if (i.verdict !== "pending" || !seen) return i.verdict;
  if (seen.self || seen.stopped || (seen.beat !== null && seen.beat > i.since)) return "alive";
  return now - i.since >= deadAfterMs ? "crashed" : "pending";
}

const count = (list: Interruption[], v: Verdict) => list.filter((i) => i.verdict === v).length;

/** Whether pending verdicts decide between a crash loop and another attempt. */
const undecided = (list: Interruption[], maxAttempts: number) => {
  const crashes = count(list, "crashed");
  return crashes < maxAttempts && crashes + count(list, "pending") >= maxAttempts;
};

/** The resume event for a run taken over, with its in-flight steps' interruptions judged when a liveness port is given. */
export async function resumeEvent(
  ports: EnginePorts,
  snap: RunSnapshot,
  state: PlannerState,
  options: { maxAttempts: number; stop?: AbortSignal | undefined },
): Promise<Extract<PlannerEvent, { type: "resume" }>> {
  // a map whose items run is no step in flight itself (its open items are re-dispatched by the planner)
  const inFlight = Object.entries(state.nodes).filter(([, n]) => n.phase === "running" && !hasOpenItems(n));
  const liveness = ports.liveness;
  if (!liveness || inFlight.length === 0) return { type: "resume", inputs: snap.inputs };
  const lists: Record<string, Interruption[]> = {};
  for (const [nodeId, n] of inFlight) {
    const row = snap.steps.find((s) => s.nodeId === nodeId && s.iteration === n.iteration);
    const latest: Interruption = {
      iteration: n.iteration,
      attempt: n.attempt,
      owner: row?.leaseOwner ?? null,
      since: Number.NaN,
      verdict: "pending",
    };
    lists[nodeId] = [...earlierInterruptions(n).map((i) => ({ ...i })), latest];
  }
  const all = Object.values(lists).flat();
  const before = all.map((i) => i.verdict);
  await look(ports, liveness, all);
  const { clock, logger } = ports;
  const deadline = clock.now() + liveness.deadAfterMs + liveness.pollMs;
  const waiting = Object.entries(lists)
    .filter(([, list]) => undecided(list, options.maxAttempts))
    .map(([nodeId]) => nodeId);
  if (waiting.length)
    logger.info("waiting to learn whether the interrupted steps' workers died (crash-loop cap)", {
      runId: snap.runId,
      steps: waiting,
      maxWaitMs: deadline - clock.now(),
    });
  while (
    Object.values(lists).some((list) => undecided(list, options.maxAttempts)) &&
    clock.now() < deadline &&
    !options.stop?.aborted
  ) {
    await clock.sleep(liveness.pollMs, options.stop).catch(() => undefined);
    await look(ports, liveness, all);
  }
  for (const [nodeId, list] of Object.entries(lists)) {
    for (const [k, i] of list.entries()) {
      const was = before[all.indexOf(i)];
      if (k < list.length - 1 && was === i.verdict) continue;
      logger.info(k === list.length - 1 ? "interrupted step taken over" : "earlier interruption judged", {
        runId: snap.runId,
        nodeId,
        iteration: i.iteration,
        attempt: i.attempt,
        owner: i.owner,
        verdict: i.verdict,
        crashes: count(list, "crashed"),
        takeovers: count(list, "alive"),
        maxAttempts: options.maxAttempts,
      });
    }
  }
  return { type: "resume", inputs: snap.inputs, interruptions: lists };
}

/** One look at the workers behind the pending interruptions: fixes a new one's `since`, then judges. */
async function look(ports: EnginePorts, liveness: LivenessPort, all: Interruption[]): Promise<void> {
  const pending = all.filter((i) => i.verdict === "pending");
  if (pending.length === 0) return;
  const seen = await liveness.sight(pending.map((i) => i.owner)).catch((err: unknown) => {
    ports.logger.warn("worker liveness unavailable; interruptions stay pending", { err });
    return undefined;
  });
  const now = ports.clock.now();
  for (const [k, i] of pending.entries()) {
    const s = seen?.[k];
    if (Number.isNaN(i.since)) i.since = s?.beat ?? now;
    i.verdict = judge(i, s, now, liveness.deadAfterMs);
  }
}
