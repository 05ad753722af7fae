import "server-only";
import { randomUUID } from "node:crypto";
import type { RunOrigin } from "@/lib/workflow/runs";
import { runStorePool } from "./run-sql";

/**
 * The two statements of starting a run, as prepared statements on the run store's pool (run-sql.ts),
 * a fraction of what Prisma's queries cost on the start path (bench/history.md).
 */

/**
 * The workflow's name and its latest (or requested) version; when no version is asked for, whether
 * the draft is that version's document (jsonb equality), and the draft itself only when it is not.
 */
const TARGET_SQL = `
SELECT w.name, CASE WHEN $3::int IS NULL AND v.document IS DISTINCT FROM w.draft THEN w.draft END AS draft,
  COALESCE($3::int IS NULL AND v.document = w.draft, false) AS "draftIsVersion", v.id AS "versionId", v.version, v.document
FROM "Workflow" w
LEFT JOIN LATERAL (
  SELECT id, version, document FROM "WorkflowVersion"
  WHERE "workflowId" = w.id AND ($3::int IS NULL OR version = $3::int) ORDER BY version DESC LIMIT 1
) v ON true
WHERE w.id = $1 AND w."workspaceId" = $2`;

export interface TargetRow {
  name: string;
  /** null when a version was asked for, or when the draft is the version's document (draftIsVersion). */
  draft: unknown;
  draftIsVersion: boolean;
  versionId: string | null;
  version: number | null;
  document: unknown;
}

let targetReads = 0;

/** Targets this process read (a start of a workflow it started before reads none: lib/runs known-targets.ts). */
export const runTargetReadCount = (): number => targetReads;

/** The owner's workflow and the version a run would start from; null when it is not theirs. */
export async function readRunTarget(
  workspaceId: string,
  workflowId: string,
  version?: number,
): Promise<TargetRow | null> {
  targetReads++;
  const res = await runStorePool().query<TargetRow>({
    name: "weft_run_target_v1",
    text: TARGET_SQL,
    values: [workflowId, workspaceId, version ?? null],
  });
  return res.rows[0] ?? null;
}

/** A new run's id and creation time, chosen before its row is written (startRun enqueues it meanwhile). */
export const newRunKey = (): { id: string; createdAt: Date } => ({ id: randomUUID(), createdAt: new Date() });

/** Longest trigger label kept (a token, schedule, webhook or tool name). */
export const TRIGGER_LABEL_MAX = 120;

/**
 * Every run insert holds a transaction-level advisory lock keyed by the run's id until it commits
 * or rolls back. startRun enqueues the run's job while it inserts the row, so a worker may take the
 * job first; it then waits on this lock for exactly that insert to end (awaitRunInsert) instead of
 * pausing and claiming again (workers/run-worker.ts). The key is a 64-bit hash of the id under its own
 * seed; another holder of the same key (a hash collision) only makes such a wait a little longer.
 */
const RUN_INSERT_LOCK_SEED = 0x5765_6674; // "Weft"
const runInsertLock = (shared: boolean) =>
  `pg_advisory_xact_lock${shared ? "_shared" : ""}(hashtextextended($1::text, ${RUN_INSERT_LOCK_SEED}))`;
/** The FROM item both inserts select their row from: one row, after the insert's lock is taken. */
const LOCKED = `(SELECT ${runInsertLock(false)}) insert_lock`;

const RUN_COLUMNS = `id, "workspaceId", "workflowVersionId", status, inputs, "createdAt", trigger, "triggerLabel", "idempotencyKey", "parentRunId", "parentNodeId", "parentIteration", depth,
  "sourceRunId", "sourceNodeId", "sourceIteration", seed, "traceParent"`;
const RUN_VALUES = `$1, $2, $3, 'queued', $4::jsonb, $5::timestamp(3), $6::"RunTrigger", $7, $8, $9, $10, $11::int, $12::int, $13, $14, $15::int, $16::jsonb, $17`;

/**
 * The insert of a start that read no target (a target this process started before, lib/runs
 * known-targets.ts): the row is written only if that target is still what a start would read — the
 * owner's workflow with that name, its latest version (or the requested one) still `$3`, and, when
 * no version is requested, the draft still that version's document — so a cached target costs no
 * read and a stale one writes nothing.
 */
const GUARDED_INSERT_SQL = `INSERT INTO "Run" (${RUN_COLUMNS})
  SELECT ${RUN_VALUES} FROM ${LOCKED}, "Workflow" w
  JOIN LATERAL (
    SELECT id, document FROM "WorkflowVersion"
    WHERE "workflowId" = w.id AND ($20::int IS NULL OR version = $20::int) ORDER BY version DESC LIMIT 1
  ) v ON v.id = $3
  WHERE w.id = $18 AND w."workspaceId" = $2 AND w.name = $19 AND ($20::int IS NOT NULL OR v.document = w.draft)`;

/** The insert of a start that read its target (or needs no guard). */
const INSERT_SQL = `INSERT INTO "Run" (${RUN_COLUMNS}) SELECT ${RUN_VALUES} FROM ${LOCKED}`;

/** A start's target as a guarded insert expects it to be still (see GUARDED_INSERT_SQL). */
export interface ExpectedTarget {
  workflowId: string;
  workflowName: string;
  /** The version number the start asked for; undefined: the draft, which must still be the version's document. */
  requested?: number;
}

/**
 * Inserts a queued run with the given id, creation time, inputs (as JSON) and origin (its label
 * already cut to TRIGGER_LABEL_MAX; a subflow's parent step and depth; a retry's or fork's source
 * and seed) and the W3C traceparent its spans join; nothing is read back. With `expected`, only if the target is still as expected: answers
 * whether the row was written.
 */
export async function insertQueuedRun(
  workspaceId: string,
  workflowVersionId: string,
  inputsJson: string,
  key: { id: string; createdAt: Date },
  origin: RunOrigin,
  expected?: ExpectedTarget,
  traceParent?: string,
): Promise<boolean> {
  const { id, createdAt } = key;
  const { parent, lineage } = origin;
  const values = [
    id,
    workspaceId,
    workflowVersionId,
    inputsJson,
    createdAt.toISOString(),
    origin.trigger,
    origin.label ?? null,
    origin.idempotencyKey ?? null,
    parent?.runId ?? null,
    parent?.nodeId ?? null,
    parent?.iteration ?? null,
    parent?.depth ?? 0,
    lineage?.runId ?? null,
    lineage?.nodeId ?? null,
    lineage?.iteration ?? null,
    lineage ? JSON.stringify(lineage.seed) : null,
    traceParent ?? null,
  ];
  const res = expected
    ? await runStorePool().query({
        name: "weft_run_insert_guarded_v4",
        text: GUARDED_INSERT_SQL,
        values: [...values, expected.workflowId, expected.workflowName, expected.requested ?? null],
      })
    : await runStorePool().query({ name: "weft_run_insert_v8", text: INSERT_SQL, values });
  return res.rowCount === 1;
}

/**
 * Answers once no insert of the run `id` is in flight: at once when none is (the row committed, or
 * never inserted), otherwise when that insert commits or rolls back (see runInsertLock).
 */
export async function awaitRunInsert(id: string): Promise<void> {
  await runStorePool().query({ name: "weft_run_insert_wait_v1", text: `SELECT ${runInsertLock(true)}`, values: [id] });
}

/** The SQL that takes a run insert's lock for `$1` (the run's id), for tests that hold an insert open. */
export const RUN_INSERT_LOCK_SQL = `SELECT ${runInsertLock(false)}`;

/** The run an idempotency key already started for this owner, if any. */
export async function runIdByIdempotencyKey(workspaceId: string, key: string): Promise<string | null> {
  const res = await runStorePool().query<{ id: string }>({
    name: "weft_run_by_key_v1",
    text: `SELECT id FROM "Run" WHERE "idempotencyKey" = $1 AND "workspaceId" = $2`,
    values: [key, workspaceId],
  });
  return res.rows[0]?.id ?? null;
}

/** Whether an insert failed because its idempotency key is taken (a concurrent start with the same key won). */
export const isIdempotencyConflict = (err: unknown): boolean =>
  (err as { code?: string; constraint?: string } | null)?.code === "23505" &&
  (err as { constraint?: string }).constraint === "Run_idempotencyKey_key";
