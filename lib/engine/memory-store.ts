import { isTerminalRunStatus, runEventSchema, type RunEvent, type RunStatus } from "./events";
import { deepEqual } from "@/lib/workflow/equal";
import type {
  ClaimResult,
  CommitResult,
  HumanAnswer,
  RunCommit,
  RunSnapshot,
  StepRecord,
  StorePort,
  StoredEvent,
} from "./ports";

/**
 * An in-memory StorePort with the same guarantees the PostgreSQL store must give: claims bump the
 * version, commits are all-or-nothing behind the version + lease + not-terminal check, step results
 * only land on a `running` row at that attempt held by the committer (a `cancelled` result may close
 * another holder's row, as in the SQL store), events get contiguous seqs.
 * Also the reference for the PostgreSQL implementation's semantics (and a test double).
 * Every committed event must be exactly what `runEventSchema` accepts and answers (defaults filled,
 * no stray keys): the PostgreSQL store writes events as the engine made them, without parsing them
 * again on every commit, so the engine's tests, which all commit here, are where that is checked.
 */
interface MemRun {
  workflow: unknown;
  /** The saved version the document is (the driver then checks it once per version and process). */
  workflowVersionId?: string;
  inputs: Record<string, unknown>;
  status: RunStatus;
  plannerState: unknown;
  version: number;
  leaseOwner: string | null;
  cancelRequested: boolean;
  cancelReason: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  outputs: Record<string, unknown> | null;
  reason: string | null;
  promptTokens: number;
  completionTokens: number;
  stepCount: number;
  nextSeq: number;
  waitingSince: Date | null;
  pausedMs: number;
  /** A retry's or fork's results to reuse (RunSnapshot.seed). */
  seed?: unknown;
  steps: Map<string, StepRecord>;
  events: StoredEvent[];
}

const stepKey = (nodeId: string, iteration: number) => `${nodeId}#${iteration}`;

export class MemoryStore implements StorePort {
  readonly runs = new Map<string, MemRun>();
  /** Commits applied (batching keeps this near one per step). */
  commits = 0;
  /** Commits refused, by reason (assert zombie behaviour, D4). */
  readonly refused: string[] = [];
  /** Called before each commit is applied; throw from it to simulate a crash before the commit lands. */
  beforeCommit?: (runId: string, commit: RunCommit) => void;

  /** Creates a queued run (with `seed`: a retry or fork reusing another run's results). */
  create(runId: string, workflow: unknown, inputs: Record<string, unknown> = {}, seed?: unknown): void {
    this.runs.set(runId, {
      workflow,
      inputs,
      status: "queued",
      plannerState: {},
      version: 0,
      leaseOwner: null,
      cancelRequested: false,
      cancelReason: null,
      createdAt: new Date(),
      startedAt: null,
      finishedAt: null,
      outputs: null,
      reason: null,
      promptTokens: 0,
      completionTokens: 0,
      stepCount: 0,
      nextSeq: 1,
      waitingSince: null,
      pausedMs: 0,
      steps: new Map(),
      events: [],
      ...(seed !== undefined ? { seed } : {}),
    });
  }

  /** The run's row (for assertions). */
  run(runId: string): MemRun {
    const r = this.runs.get(runId);
    if (!r) throw new Error(`no run ${runId}`);
    return r;
  }

  /** Steps sorted by start (for assertions). */
  steps(runId: string): StepRecord[] {
    return [...this.run(runId).steps.values()];
  }

  async claimRun(runId: string, owner: string): Promise<ClaimResult> {
    const r = this.runs.get(runId);
    if (!r) return { ok: false, reason: "not_found" };
    if (isTerminalRunStatus(r.status)) return { ok: false, reason: "terminal" };
    if (r.status === "waiting") return { ok: false, reason: "waiting" };
    r.leaseOwner = owner;
    r.version += 1;
    return { ok: true, run: this.snapshot(runId, r) };
  }

  async commit(runId: string, c: RunCommit): Promise<CommitResult> {
    this.beforeCommit?.(runId, c);
    const r = this.runs.get(runId);
    const refuse = (reason: "stale" | "lost_lease" | "terminal" | "not_found", detail?: string): CommitResult => {
      this.refused.push(reason);
      return { ok: false, reason, ...(detail ? { detail } : {}) };
    };
    if (!r) return refuse("not_found");
    if (r.leaseOwner !== c.owner) return refuse("lost_lease", `held by ${r.leaseOwner}`);
    if (r.version !== c.expectedVersion) return refuse("stale", `version ${r.version} ≠ ${c.expectedVersion}`);
    if (isTerminalRunStatus(r.status)) return refuse("terminal");
    for (const e of c.events ?? []) assertSchemaExact(e);
    const steps = new Map([...r.steps].map(([k, v]) => [k, { ...v }]));
    for (const s of c.stepStarts ?? []) {
      steps.set(stepKey(s.nodeId, s.iteration), {
        nodeId: s.nodeId,
        iteration: s.iteration,
        attempt: s.attempt,
        status: "running",
        input: s.input,
        output: null,
        branch: null,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: null,
        error: null,
        leaseOwner: c.owner,
        startedAt: s.at,
        finishedAt: null,
      });
    }
    for (const s of c.stepSkips ?? []) {
      if (steps.has(stepKey(s.nodeId, s.iteration))) return refuse("stale", `step ${s.nodeId}#${s.iteration} exists`);
      steps.set(stepKey(s.nodeId, s.iteration), {
        nodeId: s.nodeId,
        iteration: s.iteration,
        attempt: 1,
        status: "skipped",
        input: null,
        output: null,
        branch: null,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: null,
        error: null,
        leaseOwner: c.owner,
        startedAt: null,
        finishedAt: s.at,
      });
    }
    for (const s of c.stepResults ?? []) {
      const row = steps.get(stepKey(s.nodeId, s.iteration));
      // A cancellation may close a row a dead worker started (the crash-loop terminal commit, D3),
      // and a waiting human review (or a step waiting for its retry) is closed by whoever holds the run
      // when its answer comes: the run guard above proves the committer holds the run. Any other
      // result needs its own running row.
      const ours = row?.leaseOwner === c.owner || s.status === "cancelled";
      const open = row?.status === "waiting" || row?.status === "retrying" || (row?.status === "running" && ours);
      if (!row || !open || row.attempt !== s.attempt) {
        return refuse("lost_lease", `step ${s.nodeId}#${s.iteration} not running under this lease`);
      }
      Object.assign(row, {
        status: s.status,
        output: s.output,
        branch: s.branch,
        promptTokens: s.promptTokens,
        completionTokens: s.completionTokens,
        latencyMs: s.latencyMs,
        error: s.error,
        finishedAt: s.status === "waiting" ? null : s.at,
      });
    }
    const stored = (c.events ?? []).map((event, i) => ({
      seq: r.nextSeq + i,
      at: new Date(),
      event: structuredClone(event),
    }));
    this.applyRun(r, c);
    r.steps = steps;
    r.events.push(...stored);
    r.nextSeq += stored.length;
    r.version += 1;
    this.commits += 1;
    return { ok: true, version: r.version, events: stored };
  }

  private applyRun(r: MemRun, c: RunCommit): void {
    const w = c.run;
    if (!w) return;
    if (w.status) r.status = w.status;
    if (w.plannerState !== undefined) r.plannerState = structuredClone(w.plannerState);
    if (w.outputs) r.outputs = w.outputs;
    if (w.reason !== undefined) r.reason = w.reason;
    if (w.startedAt) r.startedAt = w.startedAt;
    if (w.finishedAt) r.finishedAt = w.finishedAt;
    if (w.addTokens) {
      r.promptTokens += w.addTokens.promptTokens;
      r.completionTokens += w.addTokens.completionTokens;
    }
    if (w.addSteps) r.stepCount += w.addSteps;
    if (w.waitingSince) r.waitingSince = w.waitingSince;
    if (w.status === "waiting") r.leaseOwner = null;
  }

  async releaseRun(runId: string, owner: string, version: number): Promise<void> {
    const r = this.runs.get(runId);
    if (r && r.leaseOwner === owner && r.version === version) r.leaseOwner = null;
  }

  async requestCancel(runId: string, reason?: string): Promise<void> {
    const r = this.runs.get(runId);
    if (!r) return;
    r.cancelRequested = true;
    r.cancelReason = reason ?? null;
  }

  async isCancelRequested(runId: string): Promise<{ requested: boolean; reason: string | null }> {
    const r = this.runs.get(runId);
    return { requested: r?.cancelRequested ?? false, reason: r?.cancelReason ?? null };
  }

  async readAnswers(runId: string): Promise<{ nodeId: string; iteration: number; answer: HumanAnswer }[]> {
    const r = this.runs.get(runId);
    return [...(r?.steps.values() ?? [])].flatMap((s) =>
      s.status === "waiting" && s.answer
        ? [{ nodeId: s.nodeId, iteration: s.iteration, answer: structuredClone(s.answer) }]
        : [],
    );
  }

  /**
   * What lib/runs answers do on PostgreSQL: stores a person's answer on a waiting human review
   * (refused when the step is not waiting or already answered) and, when the run is parked
   * (`waiting`), sets it queued with the wait added to pausedMs. `woke`: the caller must enqueue it.
   */
  answer(
    runId: string,
    nodeId: string,
    iteration: number,
    answer: HumanAnswer,
    now = new Date(),
  ): { ok: boolean; woke: boolean } {
    const r = this.run(runId);
    const step = r.steps.get(stepKey(nodeId, iteration));
    if (!step || step.status !== "waiting" || step.answer) return { ok: false, woke: false };
    step.answer = structuredClone(answer);
    if (r.status !== "waiting") return { ok: true, woke: false };
    r.status = "queued";
    r.pausedMs += Math.max(0, now.getTime() - (r.waitingSince?.getTime() ?? now.getTime()));
    r.waitingSince = null;
    return { ok: true, woke: true };
  }

  private snapshot(runId: string, r: MemRun): RunSnapshot {
    return structuredClone({
      runId,
      workflow: r.workflow,
      inputs: r.inputs,
      status: r.status,
      plannerState: r.plannerState,
      version: r.version,
      leaseOwner: r.leaseOwner,
      cancelRequested: r.cancelRequested,
      cancelReason: r.cancelReason,
      createdAt: r.createdAt,
      startedAt: r.startedAt,
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
      pausedMs: r.pausedMs,
      steps: [...r.steps.values()],
      ...(r.seed !== undefined ? { seed: r.seed } : {}),
    });
  }
}

/** Throws unless `event` is exactly what runEventSchema answers for it (see MemoryStore). */
export function assertSchemaExact(event: RunEvent): void {
  const parsed = runEventSchema.safeParse(event);
  if (!parsed.success) throw new Error(`event ${event.type} does not match runEventSchema: ${parsed.error.message}`);
  if (!deepEqual(parsed.data, event))
    throw new Error(
      `event ${event.type} is not in its schema's form (missing defaults or extra keys): ${JSON.stringify(event)}`,
    );
}
