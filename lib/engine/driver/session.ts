import type { Workflow } from "@/lib/workflow/schema";
import { cloneJson } from "@/lib/workflow/json-bounds";
import type { TemplateContext } from "@/lib/workflow/template";
import { isTerminalRunStatus, type RunEvent, type TerminalRunStatus } from "../events";
import { defaultExecutors, instantExecutors } from "../executors";
import type { ExecutorRegistry, InstantExecutor, InstantKind } from "../executors/types";
import {
  isOpenStep,
  plan,
  type PlannerCommand,
  type PlannerEvent,
  type PlannerState,
  type RunSeed,
  type StepInput,
} from "../planner";
import type { CommitFailure, EnginePorts, JobTrace, RunCommit, RunSnapshot, StoredEvent } from "../ports";
import { buildCommit, mergeCommits, withStoredState } from "./commit";
import { Mailbox } from "./mailbox";
import { runInstantStep, startStep, type Flight, type StepHost } from "./step-runner";
import { StepAbort } from "../errors";
import { DEFAULT_WAKE_WINDOW_MS, WakeBatcher } from "./wakes";

type Item = { t: "plan"; event: PlannerEvent } | { t: "emit"; event: RunEvent };
type StartCommand = Extract<PlannerCommand, { type: "start_step" }>;

export interface SessionOptions {
  owner: string;
  executors: ExecutorRegistry;
  maxAttempts: number;
  /** See RunJobOptions.emitLingerMs (default 50). */
  emitLingerMs?: number;
  /** See RunJobOptions.wakeWindowMs (default 5). */
  wakeWindowMs?: number;
  /** See RunJobOptions.retryHoldMs (default RETRY_HOLD_MS). */
  retryHoldMs?: number;
  /** The results this run may reuse (a retry's or fork's, parsed from the snapshot). */
  seed?: RunSeed;
}

/** How soon a step's error-policy retry must be due for the job to wait for it instead of letting the run sleep. */
export const RETRY_HOLD_MS = 5_000;

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
/** A plain abort reason (no DOMException with a stack per linger). */
const LINGER_DONE = Object.freeze({ reason: "linger over" });

/**
 * One worker's hold on one run: the serialised reducer. Every input (step results, usage, timers,
 * cancel, stop) goes through the mailbox; each is planned, committed atomically with its events,
 * and only then acted upon (steps started, in-flight steps aborted) and published (wake-ups).
 */
export class RunSession implements StepHost {
  readonly runId: string;
  readonly mailbox = new Mailbox<Item>();
  readonly inflight = new Map<string, Flight>();
  private readonly job = new AbortController();
  readonly jobSignal = this.job.signal;
  /** The job's spans (ports.trace), set by runJob after the claim. */
  trace?: JobTrace;
  state: PlannerState | null;
  version: number;
  lost: CommitFailure | undefined;
  stopping = false;
  /** When the run's timeout ends it (ms since the epoch), set by the driver's timers. */
  deadlineAt = Number.POSITIVE_INFINITY;
  private readonly wakes: WakeBatcher;
  /** Retries whose timer is armed (node#iteration#retry). */
  private readonly armed = new Set<string>();
  /** Whether the state may hold steps waiting for a retry not armed yet (the first batch: a resumed run's). */
  private retriesToArm = true;

  constructor(
    readonly ports: EnginePorts,
    readonly workflow: Workflow,
    readonly snapshot: RunSnapshot,
    state: PlannerState | null,
    readonly options: SessionOptions,
  ) {
    this.runId = snapshot.runId;
    this.state = state;
    this.version = snapshot.version;
    this.wakes = new WakeBatcher(
      (events) => this.wake(events),
      ports.clock,
      options.wakeWindowMs ?? DEFAULT_WAKE_WINDOW_MS,
    );
  }

  get executors(): ExecutorRegistry {
    return this.options.executors;
  }

  post(item: Item): void {
    this.mailbox.push(item);
  }

  get status() {
    return this.state?.status ?? "running";
  }

  get finished(): { status: TerminalRunStatus; reason: string } | undefined {
    const s = this.state;
    return s && isTerminalRunStatus(s.status) ? { status: s.status, reason: s.reason ?? "" } : undefined;
  }

  /** Human reviews waiting for an answer (nodes and iterations). */
  waitingSteps(): { nodeId: string; iteration: number }[] {
    const s = this.state;
    if (!s || s.status !== "running") return [];
    return Object.entries(s.nodes)
      .filter(([, n]) => n.phase === "waiting")
      .map(([nodeId, n]) => ({ nodeId, iteration: n.iteration }));
  }

  /** Nothing runs or is queued, and human reviews wait: the job parks the run (status waiting) instead of holding it. */
  get parked(): boolean {
    const s = this.state;
    if (!s || s.status !== "running" || this.inflight.size > 0 || this.mailbox.size > 0) return false;
    const nodes = Object.values(s.nodes);
    return (
      nodes.some((n) => n.phase === "waiting") && !nodes.some((n) => n.phase === "running" || n.phase === "retrying")
    );
  }

  /**
   * Nothing runs or is queued, steps wait for their error-policy retries and the first is due later
   * than `retryHoldMs` from now: when it is due (ms since the epoch), else undefined. The job then lets
   * the run sleep (released, a delayed job) instead of holding a worker through the backoff.
   */
  get sleepUntil(): number | undefined {
    const s = this.state;
    if (
      !s ||
      s.status !== "running" ||
      this.inflight.size > 0 ||
      this.mailbox.size > 0 ||
      !this.ports.queue?.enqueueRunLater
    )
      return undefined;
    let next = Number.POSITIVE_INFINITY;
    for (const n of Object.values(s.nodes)) {
      if (n.phase === "running") return undefined;
      if (n.phase === "retrying") next = Math.min(next, n.retryAt ?? 0);
    }
    return next !== Number.POSITIVE_INFINITY &&
      next - this.ports.clock.now() > (this.options.retryHoldMs ?? RETRY_HOLD_MS)
      ? next
      : undefined;
  }

  /**
   * Takes and handles items until the run is terminal, the lease is lost, or a stop drained the
   * steps. Items that queued up meanwhile (a step's usage report and its result, parallel branches
   * finishing together) are planned one by one but committed as ONE transaction.
   */
  async loop(): Promise<void> {
    while (
      !this.lost &&
      !this.finished &&
      !this.parked &&
      this.sleepUntil === undefined &&
      !(this.stopping && this.inflight.size === 0 && this.mailbox.size === 0)
    ) {
      const first = await this.mailbox.take();
      if (!first) continue;
      await tick();
      if (first.t === "emit") await this.linger();
      await this.applyBatch([first, ...this.mailbox.drain()]);
    }
  }

  /**
   * Only visible events (step_progress, handoff) are queued while steps run: wait up to
   * `emitLingerMs` for a state change (a usage report, a result, a cancel) to commit them with,
   * so a step's progress and its result usually share one commit instead of two back to back.
   */
  private async linger(): Promise<void> {
    const ms = this.options.emitLingerMs ?? 50;
    const deadline = this.ports.clock.now() + ms;
    const planned = () => this.mailbox.some((i) => i.t === "plan");
    let waited = false;
    while (ms > 0 && this.inflight.size > 0 && !this.stopping && !planned()) {
      const left = deadline - this.ports.clock.now();
      if (left <= 0) break;
      waited = true;
      const timer = new AbortController();
      await Promise.race([this.mailbox.changed(), this.ports.clock.sleep(left, timer.signal).catch(() => undefined)]);
      timer.abort(LINGER_DONE);
    }
    if (waited) await tick();
  }

  /** Plans the events in order, commits all results as one transaction, then performs the commands. */
  async apply(...events: PlannerEvent[]): Promise<void> {
    await this.applyBatch(events.map((event) => ({ t: "plan", event })));
  }

  /**
   * Instant steps (start/end/abort with their default executors) are executed while the batch is
   * planned: their results join the end of the batch, so a step's start and result are committed
   * together, before any step depending on it starts, and a run saves two commits.
   */
  private async applyBatch(items: Item[]): Promise<void> {
    let state = this.state;
    const commits: RunCommit[] = [];
    const commands: PlannerCommand[] = [];
    const at = new Date(this.ports.clock.now());
    const queue = [...items];
    for (let i = 0; i < queue.length; i++) {
      const item = queue[i]!;
      if (state && state.status !== "running") break;
      if (item.t === "emit") {
        commits.push({ owner: this.options.owner, expectedVersion: this.version, events: [item.event] });
        continue;
      }
      const r = plan(this.workflow, state, item.event, {
        maxAttempts: this.options.maxAttempts,
        now: at.getTime(),
        ...(this.options.seed ? { seed: this.options.seed } : {}),
      });
      if (r.ignored) continue;
      commits.push(buildCommit(this.options.owner, this.version, item.event, r, at));
      if (r.events.some((e) => e.type === "step_retrying")) this.retriesToArm = true;
      state = r.state;
      for (const c of r.commands) {
        if (c.type === "start_step" && c.reuse) {
          // a result reused from the run this one derives from: answered at once, committed with its start
          queue.push({ t: "plan", event: reusedResult(c, c.reuse) });
          continue;
        }
        const instant = c.type === "start_step" && this.instant(c);
        if (instant)
          queue.push({ t: "plan", event: runInstantStep(this, c, this.templateData(state, c.input), instant) });
        else commands.push(c);
      }
    }
    if (commits.length === 0) return;
    const stored = await this.commit(withStoredState(mergeCommits(commits), state));
    if (!stored) return;
    this.state = state;
    // the next steps start first, the wake-up follows: publishing never delays a step
    this.perform(commands);
    this.armRetries();
    this.publish(stored);
  }

  /**
   * A timer per step waiting for its retry (once each), which plans retry_due when the retry is due;
   * the timers end with the job (a run that sleeps is woken by its delayed job instead, and a resumed
   * run arms them again from its state, so a retry due while no job held the run starts at once).
   */
  private armRetries(): void {
    const s = this.state;
    if (!this.retriesToArm || !s || s.status !== "running") return;
    this.retriesToArm = false;
    for (const [nodeId, n] of Object.entries(s.nodes)) {
      if (n.phase !== "retrying" || n.retry === undefined) continue;
      const key = `${nodeId}#${n.iteration}#${n.retry}`;
      if (this.armed.has(key)) continue;
      this.armed.add(key);
      const due = { type: "retry_due" as const, nodeId, iteration: n.iteration, retry: n.retry };
      this.ports.clock.sleep(Math.max(0, (n.retryAt ?? 0) - this.ports.clock.now()), this.jobSignal).then(
        () => this.post({ t: "plan", event: due }),
        () => undefined,
      );
    }
  }

  /** Commits events (and optional run changes) outside the planner, e.g. step_progress or a refused start. */
  async commitRaw(parts: Pick<RunCommit, "events" | "run">): Promise<boolean> {
    const stored = await this.commit({ owner: this.options.owner, expectedVersion: this.version, ...parts });
    if (stored) this.publish(stored);
    return stored !== null;
  }

  /** One store commit; answers the stored events (to publish), or null when refused (the lease is lost). */
  private async commit(commit: RunCommit): Promise<StoredEvent[] | null> {
    const res = await this.ports.store.commit(this.runId, commit);
    if (!res.ok) {
      this.lost = res.reason;
      this.ports.logger.warn("run commit refused; another worker owns the run", {
        runId: this.runId,
        reason: res.reason,
        detail: res.detail,
      });
      return null;
    }
    this.version = res.version;
    return res.events;
  }

  /** Wake-ups for viewers, batched per window (wakes.ts); the run's last events go out at once. */
  private publish(events: StoredEvent[]): void {
    if (!this.ports.events) return;
    this.wakes.push(
      events,
      events.some((e) => e.event.type === "run_finished"),
    );
  }

  /** Sends the wake-ups still waiting for their window (the job is ending). */
  flushWakes(): void {
    this.wakes.flush();
  }

  /** One wake-up: fire and forget, so a slow or down Redis never stalls the run (D5). */
  private wake(events: StoredEvent[]): void {
    const port = this.ports.events;
    if (!port) return;
    const warn = (err: unknown) =>
      this.ports.logger.warn("publishing run events failed (viewers replay from the store)", {
        runId: this.runId,
        err,
      });
    try {
      Promise.resolve(port.published(this.runId, events)).catch(warn);
    } catch (err) {
      warn(err);
    }
  }

  private perform(commands: PlannerCommand[]): void {
    for (const c of commands) {
      if (c.type === "start_step" && !this.stopping && this.stillRunning(c)) {
        const key = flightKey(c);
        const flight = startStep(this, c, this.templateData(this.state, c.input));
        this.inflight.set(key, flight);
        void flight.done.finally(() => this.forget(key, flight));
      } else if (c.type === "cancel_steps") {
        for (const s of c.steps) this.abortFlight(flightKey(s), new StepAbort("cancelled"));
      }
    }
  }

  /**
   * The synchronous executor of a node kind that does no I/O (lib/engine/executors instantExecutors),
   * when this session runs the kind's default executor: its step runs inside the batch that starts
   * it. A human review's executor only renders its question, so its start and question share a commit.
   */
  private instant(c: StartCommand): InstantExecutor | undefined {
    if (this.stopping || !Object.hasOwn(instantExecutors, c.kind)) return undefined;
    const kind = c.kind as InstantKind;
    return this.executors[kind] === defaultExecutors[kind] ? (instantExecutors[kind] as InstantExecutor) : undefined;
  }

  /** A start planned earlier in a batch may have been cancelled by a later item of the same batch. */
  private stillRunning(c: { nodeId: string; iteration: number; attempt: number }): boolean {
    return this.state !== null && isOpenStep(this.state, c);
  }

  private forget(key: string, f: Flight): void {
    if (this.inflight.get(key) === f) this.inflight.delete(key);
    this.mailbox.wake();
  }

  /** Aborts one in-flight step; its eventual result is dropped. */
  abortFlight(key: string, reason: StepAbort): void {
    const f = this.inflight.get(key);
    if (!f) return;
    f.settled = true;
    f.controller.abort(reason);
  }

  /** Aborts every in-flight step and stops the job's timers. */
  abortAll(reason: StepAbort): void {
    for (const key of [...this.inflight.keys()]) this.abortFlight(key, reason);
    this.job.abort(reason);
  }

  /** Template data for a step starting now: a snapshot, so parallel steps never share mutable state; a map item's step gets its item. */
  private templateData(state: PlannerState | null, input: StepInput): TemplateContext {
    const { feedback, item } = input;
    const nodes: Record<string, { output?: unknown }> = {};
    for (const [id, n] of Object.entries(state?.nodes ?? {}))
      if (n.output !== undefined) nodes[id] = { output: cloned(n.output) };
    const vars = Object.fromEntries(this.workflow.variables.map((v) => [v.key, v.value]));
    return {
      inputs: cloned(this.snapshot.inputs),
      vars,
      nodes,
      ...(feedback !== undefined ? { feedback } : {}),
      ...(item ? { item: cloned(item.value) } : {}),
    };
  }
}

/**
 * A copy of a JSON value a step may keep (objects deep-copied; strings, numbers and the like are
 * immutable already). Without recursion: a value nested past a few thousand levels (a run's inputs
 * stored before they were limited, a tool's answer) made structuredClone throw on every attempt.
 */
const cloned = <T>(v: T): T => (typeof v === "object" && v !== null ? cloneJson(v) : v);

/** A reused step's result: the recorded output (a copy: later steps may keep it) and branch, no usage. */
function reusedResult(c: StartCommand, reuse: { output: unknown; branch: string | null }): PlannerEvent {
  const key = { nodeId: c.nodeId, iteration: c.iteration, attempt: c.attempt };
  return {
    type: "step_succeeded",
    ...key,
    output: cloned(reuse.output),
    ...(reuse.branch !== null ? { branch: reuse.branch } : {}),
    usage: { promptTokens: 0, completionTokens: 0 },
    latencyMs: 0,
  };
}

/** Map key of an in-flight step attempt. */
export const flightKey = (s: { nodeId: string; iteration: number; attempt: number }): string =>
  `${s.nodeId}#${s.iteration}#${s.attempt}`;
