import "server-only";
import { randomUUID } from "node:crypto";
import { jsonTimestamp, type RunEnd } from "@/lib/db/run-log";
import { isTerminalRunStatus, type RunStatus } from "@/lib/engine/events";
import type { CommitFailure, RunCommit } from "@/lib/engine/ports";
import type { Step } from "@/lib/generated/prisma/client";

/**
 * What this process knows of the runs it holds: every Step row as it now is, the next event seq,
 * the Run row's version and what the run's log holds that the rows do not yet (lib/run-store/step-log-sql.ts).
 * A run is held from its claim (seeded from the claim's snapshot, or from a fresh run's first
 * commit) until it ends, parks, is released or a commit is refused.
 *
 * The engine sees a version that moves by one with every commit (StorePort). A commit stored in the
 * log alone leaves the Run row, so its version too: `version` is the engine's, `dbVersion` the row's.
 */
export interface HeldRun {
  runId: string;
  owner: string;
  status: RunStatus;
  version: number;
  dbVersion: number;
  /** The seq the run's next event gets. */
  next: number;
  rows: Map<string, LogRow>;
  /** What log-only commits hold that the Step and Run rows do not; null when nothing. */
  unfolded: Unfolded | null;
  /** When the rows were last written (ms): the log holds at most WEFT_STEP_LOG_MS of commits. */
  writtenAt: number;
  /** The commit in flight: commits of one held run are applied one after another. */
  busy: Promise<unknown> | null;
}

/** A Step row as the log and the fold write it (column names; times as ISO strings; no answer: other processes write that). */
export type LogRow = Omit<
  Step,
  "runId" | "answer" | "status" | "input" | "output" | "createdAt" | "startedAt" | "finishedAt"
> & {
  status: string;
  input: unknown;
  output: unknown;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

export interface Unfolded {
  rows: Set<string>;
  addPrompt: number;
  addCompletion: number;
  addSteps: number;
  state?: unknown;
  /** The run's end, when a logged commit ended it (its rows are written right after). */
  end?: LoggedEnd;
}

/**
 * How long commits may stay in the log before one writes the rows again (WEFT_STEP_LOG_MS, validated
 * by lib/env at start-up; 0 turns the log off): readers that do not fold the log (run lists) lag a
 * running run by at most this much plus one step. Steps slower than this (most model calls) are
 * therefore committed as before, one Run and Step write each. Read here without lib/env for the
 * reason lib/db/client.ts gives for its pool size.
 */
let logWindowMs = Number(process.env.WEFT_STEP_LOG_MS ?? 1_000) || 0;
/** Sets the window (tests of the single-statement commit turn the log off). */
export const setLogWindowMs = (ms: number) => {
  logWindowMs = ms;
};
/** Held runs a process remembers at most (a driver that stops without releasing leaves one behind). */
const MAX_HELD = 10_000;

const held = new Map<string, HeldRun>();
const keyOf = (runId: string, owner: string) => `${runId}\u0000${owner}`;
export const rowKey = (s: { nodeId: string; iteration: number }) => `${s.nodeId}\u0000${s.iteration}`;
const iso = (d: Date) => d.toISOString();

export function heldRun(runId: string, owner: string): HeldRun | undefined {
  return held.get(keyOf(runId, owner));
}

export function hold(run: Omit<HeldRun, "unfolded" | "writtenAt" | "busy">): HeldRun {
  const h: HeldRun = { ...run, unfolded: null, writtenAt: Date.now(), busy: null };
  held.delete(keyOf(run.runId, run.owner));
  held.set(keyOf(run.runId, run.owner), h);
  if (held.size > MAX_HELD) held.delete(held.keys().next().value!);
  return h;
}

export function letGo(runId: string, owner: string): void {
  held.delete(keyOf(runId, owner));
}

/** A claimed snapshot's Step row (row_to_json of "Step") as a LogRow. */
export function logRowOf(s: LogRow): LogRow {
  const t = (v: string | null) => jsonTimestamp(v)?.toISOString() ?? null;
  return {
    id: s.id,
    nodeId: s.nodeId,
    iteration: s.iteration,
    attempt: s.attempt,
    status: s.status,
    input: s.input ?? null,
    output: s.output ?? null,
    branch: s.branch,
    promptTokens: s.promptTokens,
    completionTokens: s.completionTokens,
    latencyMs: s.latencyMs,
    error: s.error,
    leaseOwner: s.leaseOwner,
    createdAt: t(s.createdAt)!,
    startedAt: t(s.startedAt),
    finishedAt: t(s.finishedAt),
  };
}

/**
 * A commit's effect on the held rows, checked as the commit statement checks them (commit-statement.ts):
 * the rows it changes, by key, each as it will be (the held rows change only once it landed).
 */
export type Planned = Plan | { ok: false; reason: CommitFailure; detail: string };
/** A plan the held rows allow. */
export type Plan = { ok: true; touched: Map<string, LogRow>; changesWaiting: boolean };

/** A held row as it is once `planned` landed. */
export const rowAfter = (h: HeldRun, planned: Plan, key: string): LogRow | undefined =>
  planned.touched.get(key) ?? h.rows.get(key);

/**
 * Plans `c`'s step writes on `h`'s rows, in the order one statement applies them: each
 * result of a row not (re)started in the same commit must hit a row running under this owner and
 * attempt, waiting under anyone, or be a cancel; a result with its restart is only checked; a
 * start then (re)writes its row, with the result of the same attempt when the commit has one; a
 * skip must hit no row. Null: the commit writes a row twice in a way one statement cannot.
 */
export function planRows(h: HeldRun, c: RunCommit): Planned | null {
  const starts = new Map((c.stepStarts ?? []).map((s) => [rowKey(s), s]));
  if (starts.size !== (c.stepStarts ?? []).length) return null;
  const touched = new Map<string, LogRow>();
  const rowOf = (k: string) => touched.get(k) ?? h.rows.get(k);
  let changesWaiting = false;
  const results = new Set<string>();
  for (const r of c.stepResults ?? []) {
    const k = rowKey(r);
    if (results.has(k)) return null;
    results.add(k);
    const restart = starts.get(k);
    if (restart && restart.attempt === r.attempt) continue; // completes its start, below
    if (restart && restart.attempt < r.attempt) return null;
    const row = rowOf(k);
    const open =
      row &&
      row.attempt === r.attempt &&
      (row.status === "waiting" ||
        row.status === "retrying" ||
        (row.status === "running" && (row.leaseOwner === c.owner || r.status === "cancelled")));
    if (!open)
      return {
        ok: false,
        reason: "lost_lease",
        detail: `step ${r.nodeId}#${r.iteration} attempt ${r.attempt} is not running under this owner`,
      };
    changesWaiting ||= row.status === "waiting";
    if (restart) continue; // the restart overwrites it
    const done: LogRow = {
      ...row,
      status: r.status,
      output: r.output ?? null,
      branch: r.branch,
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
      latencyMs: r.latencyMs,
      error: r.error,
      finishedAt: r.status === "waiting" ? null : iso(r.at),
    };
    touched.set(k, done);
  }
  for (const [k, s] of starts) {
    const old = rowOf(k);
    changesWaiting ||= old?.status === "waiting";
    const done = (c.stepResults ?? []).find((r) => r.attempt === s.attempt && rowKey(r) === k);
    const row: LogRow = {
      id: old?.id ?? randomUUID(),
      nodeId: s.nodeId,
      iteration: s.iteration,
      attempt: s.attempt,
      status: done?.status ?? "running",
      input: s.input ?? null,
      output: done ? (done.output ?? null) : null,
      branch: done?.branch ?? null,
      promptTokens: done?.promptTokens ?? 0,
      completionTokens: done?.completionTokens ?? 0,
      latencyMs: done?.latencyMs ?? null,
      error: done?.error ?? null,
      leaseOwner: c.owner,
      createdAt: old?.createdAt ?? iso(s.at),
      startedAt: iso(s.at),
      finishedAt: done && done.status !== "waiting" ? iso(done.at) : null,
    };
    touched.set(k, row);
  }
  for (const s of c.stepSkips ?? []) {
    const k = rowKey(s);
    if (rowOf(k)) return { ok: false, reason: "stale", detail: "a skipped step already exists" };
    const row: LogRow = {
      id: randomUUID(),
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
      createdAt: iso(s.at),
      startedAt: null,
      finishedAt: iso(s.at),
    };
    touched.set(k, row);
  }
  return { ok: true, touched, changesWaiting };
}

/** Whether `c` ends the run (a terminal status). */
const endsRun = (c: RunCommit): boolean => c.run?.status !== undefined && isTerminalRunStatus(c.run.status);

/**
 * Whether `c` may be stored in the log alone: the run is running, the commit changes only the planner
 * state and counters of the Run row or ends the run (its end rides in the log too, and the rows are
 * written right after: held-commit.ts), changes no waiting row and starts no subflow step (rows other
 * processes write answers to: answers.ts, subflow-answers.ts), has events to carry it, and the rows
 * were written less than WEFT_STEP_LOG_MS ago.
 */
export function logOnly(h: HeldRun, c: RunCommit, planned: Plan, now: number): boolean {
  if (h.status !== "running" || !c.events?.length || planned.changesWaiting || now - h.writtenAt >= logWindowMs)
    return false;
  // a subflow step's row must be there while it runs: its child's end may answer it before it waits (subflow-answers.ts)
  if (c.stepStarts?.some((s) => s.kind === "subflow")) return false;
  const w = c.run;
  const endOnly =
    endsRun(c) ||
    (w?.status === undefined && w?.outputs === undefined && w?.reason === undefined && w?.finishedAt === undefined);
  if (w && (!endOnly || w.startedAt !== undefined || w.waitingSince !== undefined)) return false;
  for (const r of planned.touched.values()) if (r.status === "waiting") return false;
  return true;
}

/** A run's end as a logged commit carries it (readers see it as lib/db/run-log.ts RunEnd; the migration logged_run_end folds it into the Run row). */
export type LoggedEnd = Omit<RunEnd, "outputs"> & { outputs?: Record<string, unknown> };

function endOf(c: RunCommit): LoggedEnd | undefined {
  const w = c.run;
  if (!w?.status || !isTerminalRunStatus(w.status)) return undefined;
  return {
    status: w.status,
    ...(w.reason !== undefined ? { reason: w.reason } : {}),
    ...(w.outputs !== undefined ? { outputs: w.outputs } : {}),
    ...(w.finishedAt !== undefined ? { finishedAt: iso(w.finishedAt) } : {}),
  };
}

/** What a log-only commit stores on its last event (see the migrations run_step_log and logged_run_end). */
export function logEntry(c: RunCommit, touched: Map<string, LogRow>): Record<string, unknown> {
  const w = c.run;
  const end = endOf(c);
  return {
    rows: [...touched.values()],
    ...(w?.plannerState !== undefined ? { state: w.plannerState ?? {} } : {}),
    ...(w?.addTokens ? { addPrompt: w.addTokens.promptTokens, addCompletion: w.addTokens.completionTokens } : {}),
    ...(w?.addSteps ? { addSteps: w.addSteps } : {}),
    ...(end ? { end } : {}),
  };
}

/** Records a log-only commit that landed. */
export function loggedCommit(h: HeldRun, c: RunCommit, planned: Plan, events: number): void {
  const u = (h.unfolded ??= { rows: new Set(), addPrompt: 0, addCompletion: 0, addSteps: 0 });
  for (const [k, r] of planned.touched) {
    u.rows.add(k);
    h.rows.set(k, r);
  }
  u.addPrompt += c.run?.addTokens?.promptTokens ?? 0;
  u.addCompletion += c.run?.addTokens?.completionTokens ?? 0;
  u.addSteps += c.run?.addSteps ?? 0;
  if (c.run?.plannerState !== undefined) u.state = c.run.plannerState ?? {};
  const end = endOf(c);
  if (end) {
    u.end = end;
    h.status = end.status;
  }
  h.next += events;
  h.version++;
}

/** Records a commit that wrote the Run row (and with it every unfolded row). */
export function writtenCommit(h: HeldRun, c: RunCommit, planned: Plan, dbVersion: number, next: number): void {
  for (const [k, r] of planned.touched) h.rows.set(k, r);
  h.unfolded = null;
  h.writtenAt = Date.now();
  h.dbVersion = dbVersion;
  h.next = next;
  h.version++;
  if (c.run?.status) h.status = c.run.status;
}
