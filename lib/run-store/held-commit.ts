import "server-only";
import type { CommitFailure, CommitResult, RunCommit, StoredEvent } from "@/lib/engine/ports";
import { isTerminalRunStatus } from "@/lib/engine/events";
import { eventPayload } from "@/lib/events/event-log";
import {
  letGo,
  loggedCommit,
  logEntry,
  logOnly,
  planRows,
  rowAfter,
  rowKey,
  writtenCommit,
  type HeldRun,
  type Plan,
  type Unfolded,
} from "./held-runs";
import { FOLD_LOG, LOG_APPEND, WRITE_HELD } from "./step-log-sql";
import { query, runWriteJson, sqlCommit, type SqlCommitResult } from "./run-sql";

/**
 * A held run's commit: its answer, or refused (as `refused`, against the Run row's version: the store
 * explains why, or gives `reason`), or to be sent on the general path (`general`, the run unheld).
 */
export type HeldOutcome =
  CommitResult | { refused: RunCommit; reason?: CommitFailure; detail?: string } | { general: RunCommit };

const counters = { logged: 0, written: 0 };
/** Commits of held runs this process stored in the log alone, and those that wrote the rows. */
export const heldStats = () => ({ ...counters });

const eventsJson = (c: RunCommit) =>
  JSON.stringify((c.events ?? []).map((e) => ({ type: e.type, payload: eventPayload(e) })));
const storedAt = (c: RunCommit, first: number, at: Date): StoredEvent[] =>
  (c.events ?? []).map((event, i) => ({ seq: first + i, at, event }));
const idsOf = (h: HeldRun, planned: Plan) => (row: { nodeId: string; iteration: number }) =>
  rowAfter(h, planned, rowKey(row))?.id;

/**
 * A commit of a run this process holds (held-runs.ts): applied one after another per run; refused
 * at once when it is stale against what this holder already committed; stored in the log alone
 * when `logOnly` allows; otherwise written as commit-statement.ts writes it, or with every unfolded row
 * (WRITE_HELD) when the log holds commits.
 */
export async function commitHeld(h: HeldRun, c: RunCommit): Promise<HeldOutcome> {
  while (h.busy) await h.busy.catch(() => undefined);
  const p = commitHeldNow(h, c);
  h.busy = p;
  try {
    return await p;
  } finally {
    if (h.busy === p) h.busy = null;
  }
}

async function commitHeldNow(h: HeldRun, c: RunCommit): Promise<HeldOutcome> {
  if (c.expectedVersion !== h.version)
    return {
      refused: c,
      reason: "stale",
      detail: `this holder is at version ${h.version}, commit expected ${c.expectedVersion}`,
    };
  const asRow = { ...c, expectedVersion: h.dbVersion };
  const planned = planRows(h, c);
  if (planned === null) {
    // rows written twice: the general path, on folded rows, unheld from now on
    if (h.unfolded) await query({ ...FOLD_LOG, values: [h.runId] });
    letGo(h.runId, h.owner);
    return { general: asRow };
  }
  if (!planned.ok) {
    letGo(h.runId, h.owner);
    return { refused: asRow, reason: planned.reason, detail: planned.detail };
  }
  const at = new Date();
  if (logOnly(h, c, planned, at.getTime())) return append(h, c, planned, at, asRow);
  const res = h.unfolded ? await writeHeld(h, c, planned, at) : await sqlCommit(h.runId, asRow, idsOf(h, planned));
  if (res.kind === "unsupported") {
    letGo(h.runId, h.owner);
    return { general: asRow };
  }
  if (res.kind === "refused") {
    letGo(h.runId, h.owner);
    return { refused: asRow };
  }
  counters.written++;
  writtenCommit(h, c, planned, res.version, res.nextSeq);
  if (isTerminalRunStatus(h.status) || h.status === "waiting") letGo(h.runId, h.owner);
  return { ok: true, version: h.version, events: res.events };
}

async function append(h: HeldRun, c: RunCommit, planned: Plan, at: Date, asRow: RunCommit): Promise<HeldOutcome> {
  const n = c.events!.length;
  const res = await query({
    ...LOG_APPEND,
    values: [
      h.runId,
      h.dbVersion,
      h.owner,
      h.next,
      at.toISOString(),
      n,
      JSON.stringify(logEntry(c, planned.touched)),
      eventsJson(c),
    ],
  });
  if (res.rowCount !== n) {
    letGo(h.runId, h.owner);
    return { refused: asRow };
  }
  counters.logged++;
  const events = storedAt(c, h.next, at);
  loggedCommit(h, c, planned, n);
  if (h.unfolded?.end) writeEnd(h);
  return { ok: true, version: h.version, events };
}

/** The row writes after logged ends, per run, until `settleHeld` took them: each resolves to the error it met, if any. */
const ending = new Map<string, Promise<unknown>>();

/**
 * After a logged end (the run's last commit, appended like the others, so its wake-up leaves after
 * one INSERT): writes the Run row (status, outputs, counters, planner state) and every Step row the
 * log holds, as WRITE_HELD without events, on the next turn of the event loop (the driver publishes
 * the wake-up first). Later commits of the run wait for it (`busy`). A claim in between folds the log
 * and with it the end (weft_fold_log), so then nothing is left to write.
 */
function writeEnd(h: HeldRun): void {
  const u = h.unfolded!;
  const run = withUnfolded({ ...u.end }, u);
  const rows = [...u.rows].map((k) => h.rows.get(k)!);
  const done = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() =>
      query({
        ...WRITE_HELD,
        values: [
          h.runId,
          h.dbVersion,
          h.owner,
          JSON.stringify(run),
          h.next,
          JSON.stringify(rows),
          "[]",
          new Date().toISOString(),
        ],
      }),
    )
    .then(
      (res) => {
        // no row: a claim came first and folded the log, the end with it
        if (res.rowCount) counters.written++;
        if (ending.get(h.runId) === done) ending.delete(h.runId);
        return undefined;
      },
      (err: unknown) => err,
    )
    .finally(() => {
      h.unfolded = null;
      if (h.busy === done) h.busy = null;
      letGo(h.runId, h.owner);
    });
  h.busy = done;
  ending.set(h.runId, done);
}

/**
 * Resolves once the rows of a run whose end was logged are written; throws what writing them met
 * (the run's row still says running then, and its next claim folds the end). The run worker awaits it
 * after a job that ended its run (workers/run-worker.ts), so a job ends only when its rows are written.
 */
export async function settleHeld(runId: string): Promise<void> {
  const done = ending.get(runId);
  if (!done) return;
  ending.delete(runId);
  const err = await done;
  if (err) throw err;
}

/** A Run write (runWriteJson's shape) with what the log added: its counters, and its planner state unless the write has one. */
function withUnfolded(w: Record<string, unknown>, u: Unfolded): Record<string, unknown> {
  return {
    ...w,
    ...(w.state === undefined && u.state !== undefined ? { state: u.state } : {}),
    addPrompt: ((w.addPrompt as number | undefined) ?? 0) + u.addPrompt,
    addCompletion: ((w.addCompletion as number | undefined) ?? 0) + u.addCompletion,
    addSteps: ((w.addSteps as number | undefined) ?? 0) + u.addSteps,
  };
}

/** WRITE_HELD: the commit with every row the log changed since the rows were last written. */
async function writeHeld(h: HeldRun, c: RunCommit, planned: Plan, at: Date): Promise<SqlCommitResult> {
  const u = h.unfolded!;
  const keys = new Set([...u.rows, ...planned.touched.keys()]);
  const rows = [...keys].map((k) => rowAfter(h, planned, k)!);
  const res = await query<{ version: number; nextSeq: number }>({
    ...WRITE_HELD,
    values: [
      h.runId,
      h.dbVersion,
      h.owner,
      JSON.stringify(withUnfolded(runWriteJson(c), u)),
      h.next,
      JSON.stringify(rows),
      eventsJson(c),
      at.toISOString(),
    ],
  });
  const row = res.rows[0];
  if (!row) return { kind: "refused" };
  return { kind: "ok", version: row.version, nextSeq: row.nextSeq, events: storedAt(c, h.next, at) };
}
