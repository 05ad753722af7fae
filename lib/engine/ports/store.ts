import type { RunEvent, RunStatus, StepStatus, TokenUsage } from "../events";

/** Store port: PostgreSQL is the source of truth (rules R7, R8). */

/** A committed step row; the store's unique key is (runId, nodeId, iteration). */
export interface StepRecord {
  nodeId: string;
  /** 1-based activation index of the node within the run (loops and re-activations bump it). */
  iteration: number;
  /** 1-based; a step re-dispatched after a crash gets attempt + 1 on the same row. */
  attempt: number;
  status: StepStatus;
  /** What the step was started with (feedback, incoming edges); JSON. */
  input: unknown;
  output: unknown;
  /** Branch id chosen by agents/routers (the outcome handle followed). */
  branch: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number | null;
  error: string | null;
  /** Worker that holds/held the step. */
  leaseOwner: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** A waiting human review's answer, once a person gave it (the engine then finishes the step with it). */
  answer?: HumanAnswer | null;
}

/**
 * The answer to a waiting step, as stored on it until the engine takes it: a person's to a human
 * review (or the clock's, when nobody answered in time), or a subflow's child run's end (`output`
 * or `error`; `choice` is then "done").
 */
export interface HumanAnswer {
  /** The branch chosen. */
  choice: string;
  values: Record<string, unknown>;
  comment?: string;
  /** Who answered (name or email), and when (ISO). */
  answeredBy?: string;
  answeredAt?: string;
  /** Nobody answered within the review's timeoutMs (this many ms): `choice` is its timeoutChoice, or "" (the step times out). */
  timedOutAfterMs?: number;
  /** A subflow's child run succeeded: the step's output (its outputs). */
  output?: unknown;
  /** A subflow's child run did not succeed: the step fails with this. */
  error?: string;
}

/** Everything the driver needs to (re)start a run, as loaded in one read. */
export interface RunSnapshot {
  runId: string;
  /** The workflow document of the run's version (JSON; the driver parses it with workflowSchema). */
  workflow: unknown;
  /**
   * The saved version that document is (stores that know it): the driver then parses and validates
   * it once per version and process (lib/workflow checkVersion) instead of once per run job.
   */
  workflowVersionId?: string;
  /** Run inputs as the run was started with (JSON object). */
  inputs: Record<string, unknown>;
  status: RunStatus;
  /** Opaque planner state (Run.state); null or {} before the first commit. Only the engine reads it. */
  plannerState: unknown;
  /** Optimistic-concurrency version after the claim; every commit must present it. */
  version: number;
  leaseOwner: string | null;
  cancelRequested: boolean;
  /** Reason given with the cancel request, if any. */
  cancelReason: string | null;
  createdAt: Date;
  /** Set by the first commit that moves the run to running; the run deadline counts from it. */
  startedAt: Date | null;
  promptTokens: number;
  completionTokens: number;
  /** Time the run spent waiting for people (status waiting); the run deadline does not count it. */
  pausedMs?: number;
  /** A retry's or fork's results to reuse (Run.seed, JSON; the driver parses it: planner/reuse.ts); absent for other runs. */
  seed?: unknown;
  /** All steps of the run (any order). */
  steps: StepRecord[];
  /** The W3C traceparent the run was started under (its spans join that trace); absent: none. */
  traceParent?: string;
}

/** Why a claim did not hand out the run (`waiting`: parked until a human review is answered). */
export type ClaimFailure = "not_found" | "terminal" | "waiting";
export type ClaimResult = { ok: true; run: RunSnapshot } | { ok: false; reason: ClaimFailure };

/** Start (or re-start, with attempt + 1) a step: upsert on (runId, nodeId, iteration). */
export interface StepStartWrite {
  nodeId: string;
  iteration: number;
  attempt: number;
  /** Node kind, for the timeline. */
  kind: string;
  input: unknown;
  /** status := running, startedAt := at, finishedAt/output/error/branch := null, leaseOwner := commit.owner. */
  at: Date;
}

/**
 * A step's result. Applies only if the row is `running` with leaseOwner = commit.owner and the given
 * attempt; a `cancelled` result may close another holder's row (the run holder ending a run whose step
 * crashed its workers, D3), and any result may close a `waiting` or `retrying` row of any owner.
 */
export interface StepResultWrite {
  nodeId: string;
  iteration: number;
  attempt: number;
  /**
   * `waiting`: a human review asked its question (output = the question; finishedAt stays null).
   * `retrying`: the try failed and its error policy retries it (error = why; the retry restarts the row).
   */
  status: Extract<StepStatus, "succeeded" | "failed" | "timed_out" | "cancelled" | "waiting" | "retrying">;
  output: unknown;
  branch: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number | null;
  error: string | null;
  at: Date;
}

/** A node marked skipped by dead-path elimination (R3): insert a row with status skipped. */
export interface StepSkipWrite {
  nodeId: string;
  iteration: number;
  kind: string;
  at: Date;
}

/** Changes to the run row. Absent fields are left unchanged. */
export interface RunWrite {
  status?: RunStatus;
  /** New planner state (replaces Run.state). */
  plannerState?: unknown;
  outputs?: Record<string, unknown>;
  /** Why the run ended (required with a terminal status). */
  reason?: string;
  startedAt?: Date;
  finishedAt?: Date;
  /** Added to Run.promptTokens / completionTokens. */
  addTokens?: TokenUsage;
  /** Added to Run.stepCount (steps started). */
  addSteps?: number;
  /** With status `waiting` (which also clears the lease: a parked run is held by nobody): since when (Run.waitingSince). */
  waitingSince?: Date;
}

/**
 * One atomic state change of a run with its events. The implementation MUST apply all of it in ONE
 * transaction, or none of it:
 *  1. check Run.version = expectedVersion AND Run.leaseOwner = owner AND Run.status not terminal
 *     (otherwise answer `stale`/`lost_lease`/`terminal` and change nothing);
 *  2. apply stepStarts (upsert), stepSkips (insert), stepResults (update guarded by status=running,
 *     leaseOwner=owner, attempt — a miss answers `lost_lease` and rolls back), run changes;
 *  3. insert `events` in array order with seq = Run.nextSeq, nextSeq+1, … and advance Run.nextSeq
 *     (contiguous per run, R8);
 *  4. set Run.version = expectedVersion + 1.
 * Only after it returns ok may the driver dispatch dependants or publish the events. (The version is
 * the one the engine sees: lib/run-store may store a held run's commit in the run's step log alone and
 * count its version in the process that holds the run, as long as every claim and reader sees the
 * commit; see lib/run-store/held-runs.ts.)
 */
export interface RunCommit {
  owner: string;
  expectedVersion: number;
  stepStarts?: StepStartWrite[];
  stepSkips?: StepSkipWrite[];
  stepResults?: StepResultWrite[];
  run?: RunWrite;
  events?: RunEvent[];
}

/** Why a commit was refused; the driver stops working on the run (another worker owns it). */
export type CommitFailure = "stale" | "lost_lease" | "terminal" | "not_found";
export type CommitResult =
  { ok: true; version: number; events: StoredEvent[] } | { ok: false; reason: CommitFailure; detail?: string };

/** An event after it was stored, with its per-run seq. */
export interface StoredEvent {
  seq: number;
  at: Date;
  event: RunEvent;
}

/** Persistence of runs, steps and events (on PostgreSQL in lib/run-store; in memory in lib/engine/memory-store.ts). */
export interface StorePort {
  /**
   * Takes the run for `owner`: sets leaseOwner := owner, version := version + 1 (so any older
   * holder's commits become stale) and returns the snapshot. It succeeds over a previous owner: the
   * queue hands a run's job to one worker at a time, so a re-delivered job means the old holder is
   * presumed dead (D4 zombie: its late commits are then refused). Refuses terminal or missing runs.
   */
  claimRun(runId: string, owner: string): Promise<ClaimResult>;
  /** Applies a RunCommit atomically (see RunCommit). Never throws for stale/lost lease: returns ok=false. */
  commit(runId: string, commit: RunCommit): Promise<CommitResult>;
  /** Graceful hand-back: clears leaseOwner if it is still `owner` at `version` (no version bump needed). */
  releaseRun(runId: string, owner: string, version: number): Promise<void>;
  /** Records a cancel request (idempotent, no lease, no version bump); the driver finishes the run. */
  requestCancel(runId: string, reason?: string): Promise<void>;
  /** Cheap poll used between steps and while steps run. */
  isCancelRequested(runId: string): Promise<{ requested: boolean; reason: string | null }>;
  /** The answers given to the run's waiting human reviews and not yet taken by the engine (polled while such a step waits). */
  readAnswers(runId: string): Promise<{ nodeId: string; iteration: number; answer: HumanAnswer }[]>;
}
