import "server-only";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";
import { checkDocument, checkVersion } from "@/lib/workflow/checked-versions";
import type { ValidationIssue } from "@/lib/workflow/issues";
import { validate } from "@/lib/workflow/validate";
import type { TerminalRunStatus } from "../events";
import { defaultExecutors } from "../executors";
import type { ExecutorRegistry } from "../executors/types";
import { parsePlannerState, runSeedSchema, type PlannerEvent, type PlannerState, type RunSeed } from "../planner";
import type { CommitFailure, EnginePorts, HumanAnswer, RunSnapshot } from "../ports";
import { RunSession } from "./session";
import { StepAbort } from "../errors";
import { withStepData } from "./stored-state";
import { resumeEvent } from "./takeover";

/** How a run job is driven. Only `owner` is required. */
export interface RunJobOptions {
  /** This worker's identity (lease owner), e.g. `${hostname}:${pid}:${jobId}`. */
  owner: string;
  /** Executors by node kind. Default: defaultExecutors. */
  executors?: ExecutorRegistry;
  /** Graceful stop (SIGTERM): stop starting steps, let in-flight ones finish for stopGraceMs, hand the rest back. */
  stop?: AbortSignal;
  /** Default 10 000 ms. */
  stopGraceMs?: number;
  /** How often the store is polled for a cancel request while steps run. Default 500 ms. */
  cancelPollMs?: number;
  /** Attempts per step before a crash loop fails the run (D3). Default 3. */
  maxAttempts?: number;
  /** After the run ended, how long to wait for aborted steps to return before the job returns. Default 5 000 ms. */
  settleMs?: number;
  /**
   * While steps run, how long visible-only events (step_progress, handoff) may wait for a state change
   * to share its commit (they are published ≤ this much later; a step's progress and result then cost
   * one commit, not two). 0 commits them at once. Default 50 ms.
   */
  emitLingerMs?: number;
  /**
   * Live viewers' wake-ups go out at most once per this many ms per run (the first after a quiet
   * spell at once, later ones at the window's end, together; the run's end at once): see wakes.ts.
   * 0 sends one per commit. Default 5 ms.
   */
  wakeWindowMs?: number;
  /**
   * Refuses to start an invalid workflow: returns a reason or null. Checked only on a run's first
   * start (a resumed run keeps going). Default: lib/workflow validate() without registry context.
   */
  checkWorkflow?: (workflow: Workflow) => string | null;
  /**
   * A step waiting for its error-policy retry due within this many ms keeps the job (a timer);
   * otherwise, once nothing else runs, the run sleeps: released, with a job delayed until the retry is
   * due (QueuePort.enqueueRunLater). Default RETRY_HOLD_MS (5 000).
   */
  retryHoldMs?: number;
}

/** How a run job ended. Only `terminal` means the run is over; the others leave it to another job. */
export type DriverOutcome =
  | { kind: "terminal"; status: TerminalRunStatus; reason: string }
  /** Graceful stop: steps not finished were handed back; a resume job was enqueued. */
  | { kind: "handed_back"; inFlight: number }
  /** Only human reviews are left to answer: the run was parked as `waiting` and released; an answer re-enqueues it. */
  | { kind: "waiting"; steps: number }
  /** Steps wait for error-policy retries due later: the run (still running) was released, a job is due `until`. */
  | { kind: "sleeping"; until: Date }
  /** A commit was refused: another worker holds the run now (D4). Nothing more was written. */
  | { kind: "lost_lease"; reason: CommitFailure }
  | { kind: "not_found" }
  | { kind: "already_terminal" };

/**
 * Drives one run job: claims the run, starts or resumes it (R7), runs ready steps concurrently
 * (R2) with one serialised reducer for their results, and returns when the run is terminal, was
 * handed back on stop, or the lease was lost. Throws only when the store itself fails (the queue
 * then retries the job; the next attempt resumes from what was committed).
 */
export async function runJob(ports: EnginePorts, runId: string, options: RunJobOptions): Promise<DriverOutcome> {
  const claim = await ports.store.claimRun(runId, options.owner);
  if (!claim.ok)
    return claim.reason === "not_found"
      ? { kind: "not_found" }
      : claim.reason === "waiting"
        ? { kind: "waiting", steps: 0 }
        : { kind: "already_terminal" };
  const snap = claim.run;
  const opened = open(snap, options);
  const session = newSession(
    ports,
    opened.workflow ?? workflowSchema.parse({}),
    snap,
    opened.state,
    options,
    opened.seed,
  );
  const trace = ports.trace?.job(runId, snap.traceParent ?? null, {
    "weft.workflow.name": opened.workflow?.name ?? "",
    "weft.run.resumed": opened.state ? 1 : 0,
  });
  if (!trace) return openedJob(ports, session, snap, opened, options);
  session.trace = trace;
  let ended = "error";
  try {
    const outcome = await openedJob(ports, session, snap, opened, options);
    ended = outcome.kind === "terminal" ? outcome.status : outcome.kind;
    return outcome;
  } finally {
    trace.end(ended);
  }
}

/** Drives a claimed and opened run job (runJob). */
function openedJob(
  ports: EnginePorts,
  session: RunSession,
  snap: RunSnapshot,
  opened: ReturnType<typeof open>,
  options: RunJobOptions,
): Promise<DriverOutcome> {
  if (opened.refusal !== undefined) return refuse(session, opened.refusal);
  return drive(session, snap, options, async () => {
    // a cancelled run ends before anything else is planned: nothing starts or resumes, so even a run
    // whose start or resume throws (every attempt) can be cancelled
    if (snap.cancelRequested)
      return [{ type: "cancel_requested" as const, ...(snap.cancelReason ? { reason: snap.cancelReason } : {}) }];
    const judged = { maxAttempts: options.maxAttempts ?? 3, stop: options.stop };
    if (!opened.state) return [{ type: "run_started", inputs: snap.inputs }];
    return [await resumeEvent(ports, snap, opened.state, judged), ...answersOf(snap, opened.state)];
  });
}

/** The answers the snapshot holds for the run's waiting human reviews, as planner events. */
function answersOf(snap: RunSnapshot, state: PlannerState): PlannerEvent[] {
  return snap.steps.flatMap((s) => {
    const n = state.nodes[s.nodeId];
    return s.answer && s.status === "waiting" && n?.phase === "waiting" && n.iteration === s.iteration
      ? [answered(s.nodeId, s.iteration, s.answer)]
      : [];
  });
}

/** A stored answer as the planner's step_answered (a person's: the step's output is the whole answer; a child run's: its output or error). */
function answered(nodeId: string, iteration: number, answer: HumanAnswer): PlannerEvent {
  const { output, error, ...rest } = answer;
  return {
    type: "step_answered",
    nodeId,
    iteration,
    choice: answer.choice,
    answer: { ...rest },
    ...(answer.timedOutAfterMs !== undefined ? { timedOutAfterMs: answer.timedOutAfterMs } : {}),
    ...(output !== undefined ? { output } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}

function newSession(
  ports: EnginePorts,
  workflow: Workflow,
  snap: RunSnapshot,
  state: PlannerState | null,
  options: RunJobOptions,
  seed?: RunSeed,
): RunSession {
  return new RunSession(ports, workflow, snap, state, {
    ...(seed ? { seed } : {}),
    owner: options.owner,
    executors: options.executors ?? defaultExecutors,
    maxAttempts: options.maxAttempts ?? 3,
    ...(options.emitLingerMs !== undefined ? { emitLingerMs: options.emitLingerMs } : {}),
    ...(options.wakeWindowMs !== undefined ? { wakeWindowMs: options.wakeWindowMs } : {}),
    ...(options.retryHoldMs !== undefined ? { retryHoldMs: options.retryHoldMs } : {}),
  });
}

/** Plans the first events (if any), then runs the session until it is over, and concludes the job. */
async function drive(
  session: RunSession,
  snap: RunSnapshot,
  options: RunJobOptions,
  first?: () => Promise<PlannerEvent[]>,
): Promise<DriverOutcome> {
  try {
    if (first) await session.apply(...(await first()));
    armTimers(session, snap, options);
    await session.loop();
  } catch (err) {
    session.abortAll(new StepAbort("lost_lease"));
    throw err;
  } finally {
    session.flushWakes();
  }
  return conclude(session, options);
}

/**
 * Parses the run's document and, for a run that has not started, checks it. With the default check
 * and a known version, both come from lib/workflow checkVersion (once per version and process; the
 * document is then shared and frozen).
 */
function open(
  snap: RunSnapshot,
  options: RunJobOptions,
): { workflow?: Workflow; state: PlannerState | null; refusal?: string; seed?: RunSeed } {
  const versionId = options.checkWorkflow ? undefined : snap.workflowVersionId;
  const checked = versionId === undefined ? checkDocument(snap.workflow) : checkVersion(versionId, snap.workflow);
  if (!checked.ok)
    return { state: null, refusal: `Invalid workflow document: ${checked.error.issues[0]?.message ?? "unparseable"}` };
  const workflow = checked.workflow;
  let state: PlannerState | null;
  try {
    const stored = parsePlannerState(snap.plannerState);
    state = stored && withStepData(stored, snap.steps);
  } catch {
    return { workflow, state: null, refusal: "Stored run state is corrupt" };
  }
  const problem = state
    ? null
    : options.checkWorkflow
      ? options.checkWorkflow(workflow)
      : structuralProblem(checked.issues);
  if (problem) return { workflow, state, refusal: `Invalid workflow: ${problem}` };
  // a retry's or fork's results to reuse: a seed that does not parse is refused, never ignored (ignoring
  // it would run again, side effects included, what the user asked to reuse)
  const seed = snap.seed === undefined || snap.seed === null ? undefined : runSeedSchema.safeParse(snap.seed);
  if (seed && !seed.success) return { workflow, state, refusal: "The run's reuse plan (seed) is corrupt" };
  return { workflow, state, ...(seed?.data ? { seed: seed.data } : {}) };
}

/** The default check: error-level issues of validate() (structure, loops, branches, references). */
export function structuralCheck(workflow: Workflow): string | null {
  return structuralProblem(validate(workflow));
}

function structuralProblem(issues: readonly ValidationIssue[]): string | null {
  const errors = issues.filter((i) => i.severity === "error");
  if (errors.length === 0) return null;
  const more = errors.length > 3 ? ` (+${errors.length - 3} more)` : "";
  return (
    errors
      .slice(0, 3)
      .map((i) => i.message)
      .join("; ") + more
  );
}

/** Ends a run that cannot start (invalid document or state) as failed, with the reason. */
async function refuse(session: RunSession, reason: string): Promise<DriverOutcome> {
  const at = new Date(session.ports.clock.now());
  const ok = await session.commitRaw({
    run: { status: "failed", reason, finishedAt: at, plannerState: { v: 1, status: "failed", reason } },
    events: [{ type: "run_finished", status: "failed", reason }],
  });
  if (!ok) return { kind: "lost_lease", reason: session.lost ?? "stale" };
  return { kind: "terminal", status: "failed", reason };
}

/** Run deadline, cancel polling and graceful stop; all end with the job. */
function armTimers(session: RunSession, snap: RunSnapshot, options: RunJobOptions): void {
  const { clock, store, logger } = session.ports;
  const stop = session.jobSignal;
  const timeoutMs = session.workflow.limits.runTimeoutMs;
  // time spent waiting for people (parked runs) does not count toward the run's timeout
  const startedAt = (snap.startedAt?.getTime() ?? clock.now()) + (snap.pausedMs ?? 0);
  session.deadlineAt = startedAt + timeoutMs;
  const ignore = () => undefined;
  clock
    .sleep(Math.max(0, startedAt + timeoutMs - clock.now()), stop)
    .then(() => session.post({ t: "plan", event: { type: "deadline", timeoutMs } }), ignore);
  const poll = async () => {
    while (!stop.aborted) {
      await clock.sleep(options.cancelPollMs ?? 500, stop);
      const c = await store
        .isCancelRequested(session.runId)
        .catch((err: unknown) => (logger.warn("cancel poll failed", { err }), null));
      if (c?.requested)
        return session.post({
          t: "plan",
          event: { type: "cancel_requested", ...(c.reason ? { reason: c.reason } : {}) },
        });
      // a human review answered while other steps still run (a parked run is answered through a new job instead)
      if (session.waitingSteps().length > 0) {
        const answers = await store
          .readAnswers(session.runId)
          .catch((err: unknown) => (logger.warn("answer poll failed", { err }), []));
        for (const a of answers) session.post({ t: "plan", event: answered(a.nodeId, a.iteration, a.answer) });
      }
    }
  };
  poll().catch(ignore);
  const onStop = () => {
    session.stopping = true;
    session.mailbox.wake();
    clock.sleep(options.stopGraceMs ?? 10_000, stop).then(() => {
      for (const key of [...session.inflight.keys()]) session.abortFlight(key, new StepAbort("handed_back"));
      session.inflight.clear();
      session.mailbox.wake();
    }, ignore);
  };
  if (options.stop?.aborted) onStop();
  else if (options.stop) {
    // The stop signal outlives this job (it is the worker's): drop the listener when the job ends.
    const workerStop = options.stop;
    workerStop.addEventListener("abort", onStop, { once: true });
    stop.addEventListener("abort", () => workerStop.removeEventListener("abort", onStop), { once: true });
  }
}

/**
 * Only human reviews are left: the run is committed as `waiting` (with when it started waiting, so
 * the wait is left out of its timeout), which releases it; no job holds it. An answer sets it queued and
 * enqueues it (lib/runs answers), and the resumed job finishes the reviews with their answers.
 */
async function park(session: RunSession): Promise<DriverOutcome> {
  const steps = session.waitingSteps();
  session.abortAll(new StepAbort("handed_back"));
  const at = new Date(session.ports.clock.now());
  // one commit: the status, when it started waiting, the event, and the lease released
  const ok = await session.commitRaw({
    run: { status: "waiting", waitingSince: at },
    events: [{ type: "run_waiting", steps }],
  });
  if (!ok) return { kind: "lost_lease", reason: session.lost ?? "stale" };
  return { kind: "waiting", steps: steps.length };
}

/**
 * Only steps waiting for their error-policy retries are left, the first due later than the hold:
 * the run (still `running`) is released and a job is delayed until that retry (or the run's
 * deadline, if sooner) is due. Its state says when each retry is due, so whichever job claims it
 * next (the delayed one, a cancel's, the reconciler's after Redis lost it) starts the retries that
 * are due and sleeps again if none is: a crash in between costs no extra try.
 */
async function sleep(session: RunSession, until: number, options: RunJobOptions): Promise<DriverOutcome> {
  const { clock, store, queue } = session.ports;
  session.abortAll(new StepAbort("handed_back"));
  const wake = Math.min(until, session.deadlineAt);
  await store.releaseRun(session.runId, options.owner, session.version);
  await queue!.enqueueRunLater!(session.runId, "retry", Math.max(0, wake - clock.now()));
  return { kind: "sleeping", until: new Date(wake) };
}

async function conclude(session: RunSession, options: RunJobOptions): Promise<DriverOutcome> {
  const { clock, store, queue } = session.ports;
  const flights = [...session.inflight.values()].map((f) => f.done);
  if (session.lost) {
    session.abortAll(new StepAbort("lost_lease"));
    return { kind: "lost_lease", reason: session.lost };
  }
  const finished = session.finished;
  if (finished) {
    session.abortAll(new StepAbort("cancelled"));
    const grace = new AbortController();
    await Promise.race([
      Promise.allSettled(flights),
      clock.sleep(options.settleMs ?? 5_000, grace.signal).catch(() => undefined),
    ]);
    grace.abort();
    return { kind: "terminal", ...finished };
  }
  if (session.parked) return park(session);
  const until = session.sleepUntil;
  if (until !== undefined) return sleep(session, until, options);
  const running = Object.values(session.state?.nodes ?? {}).filter((n) => n.phase === "running").length;
  session.abortAll(new StepAbort("handed_back"));
  await store.releaseRun(session.runId, options.owner, session.version);
  await queue?.enqueueRun(session.runId, "resume");
  return { kind: "handed_back", inFlight: running };
}
