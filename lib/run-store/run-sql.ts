import "server-only";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { isTerminalRunStatus, type RunEvent, type RunStatus, type StepStatus } from "@/lib/engine/events";
import type { ClaimResult, HumanAnswer, RunCommit, StepRecord, StoredEvent } from "@/lib/engine/ports";
import { dbPoolMax } from "@/lib/db/client";
import { jsonTimestamp } from "@/lib/db/run-log";
import { env } from "@/lib/env";
import { eventPayload } from "@/lib/events/event-log";
import { createLogger } from "@/lib/logger";
import { preparedCommit, type Param } from "./commit-statement";
import { hold, logRowOf, rowKey, type LogRow } from "./held-runs";

const log = createLogger({ component: "run-store-sql" });

/** What the single-statement commit answered. `unsupported`: the caller must use the general path. */
export type SqlCommitResult =
  | { kind: "ok"; version: number; nextSeq: number; events: StoredEvent[] }
  | { kind: "refused" }
  | { kind: "unsupported" };

const g = globalThis as unknown as { __weftRunStorePool?: { url: string; pool: pg.Pool } };

/** The hot-path pool (WEFT_DB_POOL_MAX connections, default 10; idle connections closed after 10 s, never keeps a process alive). Follows DATABASE_URL like lib/db. */
export function runStorePool(): pg.Pool {
  const url = process.env.DATABASE_URL ?? env().DATABASE_URL;
  if (!g.__weftRunStorePool || g.__weftRunStorePool.url !== url) {
    const old = g.__weftRunStorePool?.pool;
    if (old) void old.end().catch(() => undefined);
    const pool = new pg.Pool({
      connectionString: url,
      max: dbPoolMax(),
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    });
    // 57P01: the database is being dropped or shut down (end of a test file, server restart): expected.
    pool.on("error", (err) =>
      ((err as { code?: string }).code === "57P01" ? log.debug : log.warn)("idle run-store connection failed", { err }),
    );
    g.__weftRunStorePool = { url, pool };
  }
  return g.__weftRunStorePool.pool;
}

let statements = 0;

/** Statements this process sent on the hot-path pool (B1 reports them per step). */
export const sqlStatementCount = (): number => statements;

/** One statement on the hot-path pool, counted. */
export function query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
  statements++;
  return runStorePool().query<R>(config);
}

/** Closes the hot-path pool (worker shutdown, end of a test file). */
export async function closeRunStorePool(): Promise<void> {
  const current = g.__weftRunStorePool;
  g.__weftRunStorePool = undefined;
  await current?.pool.end();
}

const iso = (d: Date) => d.toISOString();

/**
 * How a commit's step writes map onto one statement, which may change a Step row only once:
 * a result of the attempt started in the same commit (an instant step) is written with its start;
 * a result followed by the same row's restart (a retry's next attempt) is only guarded, since the
 * restart overwrites every field it would set. Any other repeat of a row needs the general path (null).
 */
interface Folded {
  /** Results written by the results UPDATE (index into stepResults). */
  apply: Set<number>;
  /** Results that are guarded (must hit a running row of this owner and attempt). */
  guarded: Set<number>;
  /** Start index → the result (index) that completes it in the same commit. */
  completes: Map<number, number>;
}

function foldResults(c: RunCommit): Folded | null {
  const starts = new Map<string, number>();
  const skipped = new Set<string>();
  for (const [i, s] of (c.stepStarts ?? []).entries()) {
    const k = rowKey(s);
    if (starts.has(k)) return null;
    starts.set(k, i);
  }
  for (const s of c.stepSkips ?? []) {
    const k = rowKey(s);
    if (starts.has(k) || skipped.has(k)) return null;
    skipped.add(k);
  }
  const folded: Folded = { apply: new Set(), guarded: new Set(), completes: new Map() };
  const results = new Set<string>();
  for (const [i, r] of (c.stepResults ?? []).entries()) {
    const k = rowKey(r);
    if (results.has(k) || skipped.has(k)) return null;
    results.add(k);
    const si = starts.get(k);
    const restart = si === undefined ? undefined : c.stepStarts![si]!.attempt;
    if (si === undefined) {
      folded.apply.add(i);
      folded.guarded.add(i);
    } else if (restart === r.attempt) folded.completes.set(si, i);
    else if (restart! > r.attempt) folded.guarded.add(i);
    else return null;
  }
  return folded;
}

export function runWriteJson(c: RunCommit): Record<string, unknown> {
  const w = c.run;
  if (!w) return {};
  return {
    ...(w.status !== undefined ? { status: w.status } : {}),
    ...(w.plannerState !== undefined ? { state: w.plannerState ?? {} } : {}),
    ...(w.outputs !== undefined ? { outputs: w.outputs } : {}),
    ...(w.reason !== undefined ? { reason: w.reason } : {}),
    ...(w.startedAt !== undefined ? { startedAt: iso(w.startedAt) } : {}),
    ...(w.finishedAt !== undefined ? { finishedAt: iso(w.finishedAt) } : {}),
    ...(w.addTokens ? { addPrompt: w.addTokens.promptTokens, addCompletion: w.addTokens.completionTokens } : {}),
    ...(w.addSteps ? { addSteps: w.addSteps } : {}),
    ...(w.waitingSince ? { waitingSince: iso(w.waitingSince) } : {}),
  };
}

/** The one statement of a commit: its prepared name and text, the values it binds, and what it stores (events, time). */
export interface CommitQuery {
  query: { name: string; text: string; values: unknown[] };
  events: RunEvent[];
  at: Date;
}

/** Applies `c` in one statement (commit-statement.ts). Throws only on database errors. */
export async function sqlCommit(runId: string, c: RunCommit, ids?: RowIds): Promise<SqlCommitResult> {
  const built = commitQuery(runId, c, ids);
  if (!built) return { kind: "unsupported" };
  const { query: q, events, at } = built;
  const res = await query<{ version: number; nextSeq: number }>(q);
  const row = res.rows[0];
  if (!row) return { kind: "refused" };
  const first = row.nextSeq - events.length;
  const stored = events.map((event, i) => ({ seq: first + i, at, event }));
  return { kind: "ok", version: row.version, nextSeq: row.nextSeq, events: stored };
}

/** The statement sqlCommit sends for `c`, or null when one statement cannot express it (the caller takes the general path). */
/** The ids the rows a commit inserts get (a held run's, so that the rows and its log agree); random without. */
export type RowIds = (row: { nodeId: string; iteration: number }) => string | undefined;

export function commitQuery(runId: string, c: RunCommit, ids?: RowIds): CommitQuery | null {
  const folded = foldResults(c);
  if (!folded) return null;
  // stored as the engine made them: typed, and checked against runEventSchema by every engine test
  // (MemoryStore); parsing each one here again was a visible share of the worker's CPU (bench/history.md)
  const events = c.events ?? [];
  const at = new Date();
  const stepResults = c.stepResults ?? [];
  const results = stepResults.flatMap((r, i) =>
    folded.guarded.has(i)
      ? [
          {
            nodeId: r.nodeId,
            iteration: r.iteration,
            attempt: r.attempt,
            status: r.status,
            output: r.output ?? null,
            branch: r.branch,
            promptTokens: r.promptTokens,
            completionTokens: r.completionTokens,
            latencyMs: r.latencyMs,
            error: r.error,
            at: iso(r.at),
            apply: folded.apply.has(i),
          },
        ]
      : [],
  );
  const starts = (c.stepStarts ?? []).map((s, i) => {
    const done = stepResults[folded.completes.get(i) ?? -1];
    return {
      id: ids?.(s) ?? randomUUID(),
      nodeId: s.nodeId,
      iteration: s.iteration,
      attempt: s.attempt,
      input: s.input ?? null,
      at: iso(s.at),
      ...(done
        ? {
            status: done.status,
            output: done.output ?? null,
            branch: done.branch,
            promptTokens: done.promptTokens,
            completionTokens: done.completionTokens,
            latencyMs: done.latencyMs,
            error: done.error,
            finishedAt: done.status === "waiting" ? null : iso(done.at),
          }
        : {}),
    };
  });
  const skips = (c.stepSkips ?? []).map((s) => ({
    id: ids?.(s) ?? randomUUID(),
    nodeId: s.nodeId,
    iteration: s.iteration,
    at: iso(s.at),
  }));
  const park = c.run?.status === "waiting";
  const oneResult = results.length === 1;
  const oneSkip = skips.length === 1;
  const statement = preparedCommit({
    results: results.length > 0,
    oneResult,
    starts: starts.length > 0,
    skips: skips.length > 0,
    oneSkip,
    park,
  });
  const value = (param: Param): unknown => {
    switch (param) {
      case "runId":
        return runId;
      case "version":
        return c.expectedVersion;
      case "owner":
        return c.owner;
      case "run":
        return JSON.stringify(runWriteJson(c));
      case "events":
        return JSON.stringify(events.map((e) => ({ type: e.type, payload: eventPayload(e) })));
      case "at":
        return iso(at);
      case "eventCount":
        return events.length;
      case "results":
        return JSON.stringify(oneResult ? results[0] : results);
      case "resultCount":
        return results.length;
      case "starts":
        return JSON.stringify(starts);
      case "skips":
        return JSON.stringify(oneSkip ? skips[0] : skips);
    }
  };
  return { query: { name: statement.name, text: statement.text, values: statement.params.map(value) }, events, at };
}

type RunJson = {
  id: string;
  workspaceId: string;
  workflowVersionId: string;
  version: number;
  status: RunStatus;
  inputs: Record<string, unknown> | null;
  state: unknown;
  leaseOwner: string | null;
  cancelRequested: boolean;
  reason: string | null;
  createdAt: string;
  startedAt: string | null;
  promptTokens: number;
  completionTokens: number;
  pausedMs: number;
  seed?: unknown;
  traceParent?: string | null;
};
type StepJson = Omit<StepRecord, "startedAt" | "finishedAt" | "status"> & {
  status: StepStatus;
  startedAt: string | null;
  finishedAt: string | null;
};

/** The answers given to a run's waiting human reviews (StorePort.readAnswers; polled only while such a step waits). */
export async function sqlReadAnswers(
  runId: string,
): Promise<{ nodeId: string; iteration: number; answer: HumanAnswer }[]> {
  const res = await runStorePool().query<{ nodeId: string; iteration: number; answer: HumanAnswer }>({
    name: "weft_run_answers_v1",
    text: `SELECT "nodeId", iteration, answer FROM "Step" WHERE "runId" = $1 AND status = 'waiting' AND answer IS NOT NULL`,
    values: [runId],
  });
  return res.rows;
}

type Snap = { run: RunJson & { nextSeq: number }; document: unknown; steps: (StepJson & LogRow)[] };

/** A claim's answer, plus (when it succeeded) the user who owns the run. */
export type SqlClaimResult =
  Exclude<ClaimResult, { ok: true }> | (Extract<ClaimResult, { ok: true }> & { workspaceId: string });

/**
 * Claims a live run for `owner` (lease := owner, version + 1) and reads its snapshot in one round
 * trip: the SQL function weft_claim (migration run_step_log) moves the lease, then folds the run's
 * log into its rows and reads them, each in a snapshot of its own taken after the lease moved, so
 * the snapshot holds every commit that preceded the claim (after it no older holder can commit: its
 * version is stale). The run is then held by this process (held-runs.ts), seeded from the snapshot.
 * The claim also answers the run's owner, so the worker needs no look-up of its own.
 */
export async function sqlClaim(runId: string, owner: string): Promise<SqlClaimResult> {
  type Claimed = {
    version?: number;
    status: RunStatus;
    cancelRequested: boolean;
    reason: string | null;
    snap?: Snap;
    seen?: RunStatus | null;
  };
  // A refused claim is explained by the run's status read right after it: no row yet (its insert may
  // still be committing: the worker claims again, workers/run-worker.ts), a terminal row, a parked one,
  // or a live one (its insert or a status change landed between the two reads): then it is tried again.
  let answer: Claimed;
  for (let tries = 1; ; tries++) {
    answer = (
      await query<{ c: Claimed }>({
        name: "weft_run_claim_v4",
        text: `SELECT weft_claim($1, $2) AS c`,
        values: [runId, owner],
      })
    ).rows[0]!.c;
    if (answer.version !== undefined && answer.snap) break;
    if (!answer.seen) return { ok: false, reason: "not_found" };
    if (answer.seen === "waiting") return { ok: false, reason: "waiting" };
    if (isTerminalRunStatus(answer.seen)) return { ok: false, reason: "terminal" };
    if (tries === 3) throw new Error(`claim of run ${runId} kept racing with changes of its status`);
  }
  const { version, snap } = answer as Claimed & { version: number; snap: Snap };
  const r = {
    ...snap.run,
    status: answer.status,
    cancelRequested: answer.cancelRequested,
    reason: answer.reason,
    leaseOwner: owner,
  };
  const live = !isTerminalRunStatus(r.status);
  hold({
    runId,
    owner,
    status: r.status,
    version,
    dbVersion: version,
    next: snap.run.nextSeq,
    rows: new Map(snap.steps.map((s) => [rowKey(s), logRowOf(s)])),
  });
  return {
    ok: true,
    workspaceId: r.workspaceId,
    run: {
      runId: r.id,
      workflow: snap.document,
      workflowVersionId: r.workflowVersionId,
      inputs: r.inputs ?? {},
      status: r.status,
      plannerState: r.state,
      version,
      leaseOwner: r.leaseOwner,
      cancelRequested: r.cancelRequested,
      cancelReason: r.cancelRequested && live ? r.reason : null,
      createdAt: jsonTimestamp(r.createdAt)!,
      startedAt: jsonTimestamp(r.startedAt),
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
      pausedMs: r.pausedMs ?? 0,
      ...(r.seed !== undefined && r.seed !== null ? { seed: r.seed } : {}),
      ...(r.traceParent ? { traceParent: r.traceParent } : {}),
      steps: snap.steps.map((s) => ({
        nodeId: s.nodeId,
        iteration: s.iteration,
        attempt: s.attempt,
        status: s.status,
        input: s.input,
        output: s.output,
        branch: s.branch,
        promptTokens: s.promptTokens,
        completionTokens: s.completionTokens,
        latencyMs: s.latencyMs,
        error: s.error,
        leaseOwner: s.leaseOwner,
        startedAt: jsonTimestamp(s.startedAt),
        finishedAt: jsonTimestamp(s.finishedAt),
        answer: s.answer ?? null,
      })),
    },
  };
}

/**
 * The driver's cancel poll (every cancelPollMs per running job) on the hot-path pool: a prepared
 * statement instead of a Prisma query. Not counted in sqlStatementCount (the store counts polls itself).
 */
export async function sqlCancelRequested(runId: string): Promise<{ requested: boolean; reason: string | null }> {
  const res = await runStorePool().query<{ cancelRequested: boolean; reason: string | null; status: RunStatus }>({
    name: "weft_run_cancel_poll_v1",
    text: `SELECT "cancelRequested", reason, status FROM "Run" WHERE id = $1`,
    values: [runId],
  });
  const run = res.rows[0];
  if (!run) return { requested: false, reason: null };
  return {
    requested: run.cancelRequested,
    reason: run.cancelRequested && !isTerminalRunStatus(run.status) ? run.reason : null,
  };
}
