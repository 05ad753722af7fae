import "server-only";

/**
 * The run's step log (migration run_step_log, lib/run-store/held-runs.ts): the two statements of a held
 * run's commits besides commit-statement.ts's.
 *
 * LOG_APPEND stores a commit as its events alone, at seqs the holder allocates, its Step rows and
 * counters on the last one. It is fenced by a share lock on the Run row, still leased to this owner
 * at the version of its claim: a claim's UPDATE waits for that lock (and then folds the log) or
 * makes the check fail, so a stale holder writes nothing; the (runId, seq) key refuses a seq taken
 * twice. One INSERT instead of the Run UPDATE, a Step UPDATE and INSERT and the events.
 *
 * WRITE_HELD writes the Run row of a held run whose log holds commits: its version, status and the
 * rest as commit-statement.ts does, the counters and planner state the log added, every Step row changed
 * since the rows were last written (whole, from what the holder knows: the same rows the log holds,
 * plus this commit's) and the events, with "nextSeq" moved past them (which folds the log: readers
 * no longer read it). The rows were checked by the holder (held-runs.ts planRows); the Run guard
 * proves the holder is still the one.
 */
export const LOG_APPEND = {
  name: "weft_run_log_append_v1",
  text: `WITH lease AS (SELECT 1 FROM "Run" WHERE id = $1 AND version = $2 AND "leaseOwner" = $3 AND status = 'running' FOR SHARE)
INSERT INTO "RunEvent" ("runId", seq, type, payload, "createdAt", "commit")
SELECT $1, $4::int + x.ord::int - 1, x.e->>'type', x.e->'payload', $5::timestamp(3), CASE WHEN x.ord = $6::int THEN $7::jsonb END
FROM lease, jsonb_array_elements($8::jsonb) WITH ORDINALITY AS x(e, ord)`,
};

const W = `$4::jsonb`;

export const WRITE_HELD = {
  name: "weft_run_write_held_v1",
  text: `WITH bump AS (
  UPDATE "Run" SET version = version + 1,
    "leaseOwner" = CASE WHEN ${W}->>'status' = 'waiting' THEN NULL ELSE "leaseOwner" END,
    status = COALESCE((${W}->>'status')::"RunStatus", status),
    state = COALESCE(${W}->'state', state),
    outputs = CASE WHEN ${W} ? 'outputs' THEN ${W}->'outputs' ELSE outputs END,
    reason = CASE WHEN ${W} ? 'reason' THEN ${W}->>'reason' ELSE reason END,
    "startedAt" = COALESCE((${W}->>'startedAt')::timestamp(3), "startedAt"),
    "finishedAt" = COALESCE((${W}->>'finishedAt')::timestamp(3), "finishedAt"),
    "waitingSince" = CASE WHEN ${W} ? 'waitingSince' THEN (${W}->>'waitingSince')::timestamp(3) ELSE "waitingSince" END,
    "promptTokens" = "promptTokens" + COALESCE((${W}->>'addPrompt')::int, 0),
    "completionTokens" = "completionTokens" + COALESCE((${W}->>'addCompletion')::int, 0),
    "stepCount" = "stepCount" + COALESCE((${W}->>'addSteps')::int, 0),
    "nextSeq" = $5::int + jsonb_array_length($7::jsonb)
  WHERE id = $1 AND version = $2 AND "leaseOwner" = $3 AND status IN ('queued', 'running')
  RETURNING version, "nextSeq"
), w_rows AS (
  INSERT INTO "Step" (id, "runId", "nodeId", iteration, attempt, status, input, output, branch, "promptTokens", "completionTokens", "latencyMs", error,
    "leaseOwner", "createdAt", "startedAt", "finishedAt")
  SELECT r.id, $1, r."nodeId", r.iteration, r.attempt, r.status::"StepStatus", r.input, r.output, r.branch, r."promptTokens", r."completionTokens",
    r."latencyMs", r.error, r."leaseOwner", r."createdAt", r."startedAt", r."finishedAt"
  FROM bump, jsonb_to_recordset($6::jsonb) AS r(id text, "nodeId" text, iteration int, attempt int, status text, input jsonb, output jsonb, branch text,
    "promptTokens" int, "completionTokens" int, "latencyMs" int, error text, "leaseOwner" text, "createdAt" timestamp(3), "startedAt" timestamp(3),
    "finishedAt" timestamp(3))
  ON CONFLICT ("runId", "nodeId", iteration) DO UPDATE SET attempt = EXCLUDED.attempt, status = EXCLUDED.status, input = EXCLUDED.input,
    output = EXCLUDED.output, branch = EXCLUDED.branch, "promptTokens" = EXCLUDED."promptTokens", "completionTokens" = EXCLUDED."completionTokens",
    "latencyMs" = EXCLUDED."latencyMs", error = EXCLUDED.error, "leaseOwner" = EXCLUDED."leaseOwner", "startedAt" = EXCLUDED."startedAt",
    "finishedAt" = EXCLUDED."finishedAt"
  RETURNING 1
), w_ev AS (
  INSERT INTO "RunEvent" ("runId", seq, type, payload, "createdAt")
  SELECT $1, $5::int + x.ord::int - 1, x.e->>'type', x.e->'payload', $8::timestamp(3) FROM bump, jsonb_array_elements($7::jsonb) WITH ORDINALITY AS x(e, ord)
  RETURNING 1
)
SELECT version, "nextSeq" FROM bump`,
};

/** Folds a run's log into its rows (migration run_step_log): before a commit that takes the general path. */
export const FOLD_LOG = { name: "weft_run_fold_log_v1", text: `SELECT weft_fold_log($1)` };
