-- The append-only step log (lib/runs/held-runs.ts, lib/engine/README.md "The step log").
-- While a worker holds a running run, a commit that changes no status may be stored as its events
-- alone: the commit's Step rows (each as it now is, whole), counters and planner state ride on its
-- last event, in "commit". Such events all have seq >= Run."nextSeq", which only commits that
-- write the Run row move, and those commits (and every claim) first fold the log into the Step rows and
-- the Run row. Readers of a run that may be running read through the functions below.
ALTER TABLE "RunEvent" ADD COLUMN "commit" JSONB;

-- The bodies of the two plpgsql functions below spell their semicolons \073 (and double their
-- quotes): Prisma's pg adapter, which runs migrations where the native schema engine is missing
-- (../shared/tools), splits a migration at every semicolon, quoted or not.

-- The newest version of each Step row the run's unfolded log holds.
CREATE FUNCTION weft_log_steps(run_id text) RETURNS SETOF "Step" LANGUAGE sql STABLE AS $$
  SELECT (l.s).* FROM (
    SELECT DISTINCT ON (j.r->>'nodeId', (j.r->>'iteration')::int)
      jsonb_populate_record(NULL::"Step", j.r || jsonb_build_object('runId', run_id)) AS s
    FROM "Run" r
    JOIN "RunEvent" e ON e."runId" = r.id AND e.seq >= r."nextSeq" AND e."commit" IS NOT NULL
    CROSS JOIN LATERAL jsonb_array_elements(e."commit"->'rows') AS j(r)
    WHERE r.id = run_id
    ORDER BY j.r->>'nodeId', (j.r->>'iteration')::int, e.seq DESC
  ) l
$$;

-- A run's Step rows as they are now: the stored rows, each replaced by its newer version in the log
-- (never a waiting row: a commit that changes one writes the rows, so no review's answer is hidden).
CREATE FUNCTION weft_run_steps(run_id text) RETURNS SETOF "Step" LANGUAGE sql STABLE AS $$
  SELECT (u.s).* FROM (
    SELECT DISTINCT ON ((x.s)."nodeId", (x.s).iteration) x.s FROM (
      SELECT l AS s, 1 AS newer FROM weft_log_steps(run_id) l
      UNION ALL
      SELECT st, 0 FROM "Step" st WHERE st."runId" = run_id
    ) x ORDER BY (x.s)."nodeId", (x.s).iteration, x.newer DESC
  ) u
$$;

-- What the unfolded log adds to the Run row: tokens, steps started, the newest planner state (null:
-- none), and the run's last seq.
CREATE FUNCTION weft_run_log(run_id text, OUT "addPrompt" int, OUT "addCompletion" int, OUT "addSteps" int, OUT state jsonb, OUT "lastSeq" int)
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(sum((e."commit"->>'addPrompt')::int), 0)::int, COALESCE(sum((e."commit"->>'addCompletion')::int), 0)::int,
    COALESCE(sum((e."commit"->>'addSteps')::int), 0)::int,
    (array_agg(e."commit"->'state' ORDER BY e.seq DESC) FILTER (WHERE e."commit" ? 'state'))[1],
    GREATEST(max(e.seq), r."nextSeq" - 1)
  FROM "Run" r LEFT JOIN "RunEvent" e ON e."runId" = r.id AND e.seq >= r."nextSeq"
  WHERE r.id = run_id GROUP BY r."nextSeq"
$$;

-- Folds the run's log into its Step rows and Run row (no-op when there is nothing to fold). Under the
-- Run row's lock, which a log append holds shared until it commits: each statement below sees every
-- append that committed before the lock was granted, and none can land until this transaction ends.
CREATE FUNCTION weft_fold_log(run_id text) RETURNS void LANGUAGE plpgsql AS
  E'DECLARE
    l record\073
  BEGIN
    PERFORM 1 FROM "Run" WHERE id = run_id FOR UPDATE\073
    SELECT * INTO l FROM weft_run_log(run_id)\073
    IF NOT FOUND OR l."lastSeq" < (SELECT "nextSeq" FROM "Run" WHERE id = run_id) THEN
      RETURN\073
    END IF\073
    INSERT INTO "Step" (id, "runId", "nodeId", iteration, attempt, status, input, output, branch, "promptTokens", "completionTokens",
      "latencyMs", error, "leaseOwner", "createdAt", "startedAt", "finishedAt")
    SELECT s.id, s."runId", s."nodeId", s.iteration, s.attempt, s.status, s.input, s.output, s.branch, COALESCE(s."promptTokens", 0),
      COALESCE(s."completionTokens", 0), s."latencyMs", s.error, s."leaseOwner", COALESCE(s."createdAt", now()), s."startedAt", s."finishedAt"
    FROM weft_log_steps(run_id) s
    ON CONFLICT ("runId", "nodeId", iteration) DO UPDATE SET attempt = EXCLUDED.attempt, status = EXCLUDED.status, input = EXCLUDED.input,
      output = EXCLUDED.output, branch = EXCLUDED.branch, "promptTokens" = EXCLUDED."promptTokens", "completionTokens" = EXCLUDED."completionTokens",
      "latencyMs" = EXCLUDED."latencyMs", error = EXCLUDED.error, "leaseOwner" = EXCLUDED."leaseOwner", "startedAt" = EXCLUDED."startedAt",
      "finishedAt" = EXCLUDED."finishedAt"\073
    UPDATE "Run" SET "promptTokens" = "promptTokens" + l."addPrompt", "completionTokens" = "completionTokens" + l."addCompletion",
      "stepCount" = "stepCount" + l."addSteps", state = COALESCE(l.state, state), "nextSeq" = l."lastSeq" + 1
    WHERE id = run_id\073
  END';

-- A claim (lease := owner, version + 1) with the run's snapshot, as JSON: {version, status,
-- cancelRequested, reason, snap: {run, document, steps}} when claimed, {seen: status or null}
-- when not. The log is folded first, after the lease moved, so the snapshot holds every commit of
-- the previous holder and no later one can land (its version is stale).
CREATE FUNCTION weft_claim(run_id text, new_owner text) RETURNS json LANGUAGE plpgsql AS
  E'DECLARE
    c record\073
  BEGIN
    UPDATE "Run" SET "leaseOwner" = new_owner, "leaseExpiresAt" = NULL, version = version + 1
    WHERE id = run_id AND status IN (''queued'', ''running'')
    RETURNING version, status, "cancelRequested", reason INTO c\073
    IF NOT FOUND THEN
      RETURN json_build_object(''seen'', (SELECT status FROM "Run" WHERE id = run_id))\073
    END IF\073
    PERFORM weft_fold_log(run_id)\073
    RETURN (
      SELECT json_build_object(''version'', c.version, ''status'', c.status, ''cancelRequested'', c."cancelRequested", ''reason'', c.reason,
        ''snap'', json_build_object(''run'', row_to_json(r), ''document'', w.document,
          ''steps'', COALESCE((SELECT json_agg(s) FROM "Step" s WHERE s."runId" = r.id), ''[]''::json)))
      FROM "Run" r JOIN "WorkflowVersion" w ON w.id = r."workflowVersionId" WHERE r.id = run_id
    )\073
  END';
