-- A run's end may be stored in its step log too (lib/runs/held-commit.ts): the commit that ends a
-- held run is appended like any other, with the end (status, reason, outputs, finishedAt) in its
-- "commit" as "end", and its worker writes the Run and Step rows right after it published the
-- wake-up. Until then the Run row still says running: whoever folds the log (a claim after a crash
-- in between) applies the end, and readers that fold (lib/db/run-log.ts readRunNow) show it.
-- Bodies of plpgsql functions spell their semicolons \073 (see migration run_step_log).

-- weft_run_log gains the log's end (null: none): its OUT columns change, so it is dropped first
-- (weft_fold_log calls it by name, which PostgreSQL does not record as a dependency).
DROP FUNCTION weft_run_log(text);

CREATE FUNCTION weft_run_log(run_id text, OUT "addPrompt" int, OUT "addCompletion" int, OUT "addSteps" int, OUT state jsonb, OUT "lastSeq" int, OUT "end" jsonb)
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(sum((e."commit"->>'addPrompt')::int), 0)::int, COALESCE(sum((e."commit"->>'addCompletion')::int), 0)::int,
    COALESCE(sum((e."commit"->>'addSteps')::int), 0)::int,
    (array_agg(e."commit"->'state' ORDER BY e.seq DESC) FILTER (WHERE e."commit" ? 'state'))[1],
    GREATEST(max(e.seq), r."nextSeq" - 1),
    (array_agg(e."commit"->'end' ORDER BY e.seq DESC) FILTER (WHERE e."commit" ? 'end'))[1]
  FROM "Run" r LEFT JOIN "RunEvent" e ON e."runId" = r.id AND e.seq >= r."nextSeq"
  WHERE r.id = run_id GROUP BY r."nextSeq"
$$;

-- As in run_step_log, and a logged end becomes the Run row's status, reason, outputs and finishedAt.
CREATE OR REPLACE FUNCTION weft_fold_log(run_id text) RETURNS void LANGUAGE plpgsql AS
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
      "stepCount" = "stepCount" + l."addSteps", state = COALESCE(l.state, state), "nextSeq" = l."lastSeq" + 1,
      status = COALESCE((l."end"->>''status'')::"RunStatus", status),
      reason = CASE WHEN l."end" ? ''reason'' THEN l."end"->>''reason'' ELSE reason END,
      outputs = CASE WHEN l."end" ? ''outputs'' THEN l."end"->''outputs'' ELSE outputs END,
      "finishedAt" = COALESCE((l."end"->>''finishedAt'')::timestamp(3), "finishedAt")
    WHERE id = run_id\073
  END';

-- As in run_step_log, but a run the fold ended (its end was logged, its rows not yet written) is
-- answered as seen ended, like any finished run: no snapshot, nothing to drive.
CREATE OR REPLACE FUNCTION weft_claim(run_id text, new_owner text) RETURNS json LANGUAGE plpgsql AS
  E'DECLARE
    c record\073
    now_status "RunStatus"\073
  BEGIN
    UPDATE "Run" SET "leaseOwner" = new_owner, "leaseExpiresAt" = NULL, version = version + 1
    WHERE id = run_id AND status IN (''queued'', ''running'')
    RETURNING version, status, "cancelRequested", reason INTO c\073
    IF NOT FOUND THEN
      RETURN json_build_object(''seen'', (SELECT status FROM "Run" WHERE id = run_id))\073
    END IF\073
    PERFORM weft_fold_log(run_id)\073
    SELECT status INTO now_status FROM "Run" WHERE id = run_id\073
    IF now_status NOT IN (''queued'', ''running'') THEN
      RETURN json_build_object(''seen'', now_status)\073
    END IF\073
    RETURN (
      SELECT json_build_object(''version'', c.version, ''status'', c.status, ''cancelRequested'', c."cancelRequested", ''reason'', c.reason,
        ''snap'', json_build_object(''run'', row_to_json(r), ''document'', w.document,
          ''steps'', COALESCE((SELECT json_agg(s) FROM "Step" s WHERE s."runId" = r.id), ''[]''::json)))
      FROM "Run" r JOIN "WorkflowVersion" w ON w.id = r."workflowVersionId" WHERE r.id = run_id
    )\073
  END';
