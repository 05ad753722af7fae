import "server-only";

/**
 * The run store's hot path: a whole RunCommit as ONE SQL statement (data-modifying CTEs), i.e. one
 * round trip and one implicit transaction per commit, sent as a named prepared statement on a small
 * node-postgres pool of its own, because every round trip on a step's path costs (bench/history.md).
 * The guards: the `Run` UPDATE is the version + lease + live-status check, and it also requires
 * every step result to hit a `running` row of this owner and attempt and every skip to hit no
 * existing row; every other write joins the UPDATE's output, so a refused guard writes nothing at
 * all. A waiting human review's row is closed by whoever holds the run when its answer comes (the Run
 * guard proves that), so its result needs no owner match; so is a row waiting for its error-policy
 * retry (when the run ends meanwhile). Parking a run (status `waiting`) releases
 * its lease in the same statement. The `Run` row lock taken by the UPDATE orders concurrent
 * appenders, so event seqs stay contiguous (R8) exactly as with lib/events appendEvents.
 */

/** How a commit statement moves the Run row (its version, and its lease when the run parks) and which rows it may move. */
type Bump = { set: string; where: string };

/** The parts of a commit besides its Run write and events; the statement leaves out those it lacks. */
export interface Parts {
  results: boolean;
  /**
   * Exactly one result (most commits: a chain step's, a loop's): its row is bound as one JSON object
   * (jsonb_to_record, which PostgreSQL plans as one row), so the guard and the write find the Step row
   * by its whole key. A set (jsonb_to_recordset, planned as 100 rows) finds each row by its key too,
   * through a LATERAL look-up with a LIMIT (see `rowOf`): joined plainly, it was hash-joined with every
   * Step row of the run, a cost that grew with the run (bench/history.md).
   */
  oneResult?: boolean;
  starts: boolean;
  skips: boolean;
  /** Exactly one skip (a loop's "revise" commit skips the path not taken): bound as one object and checked by its whole key, like oneResult. */
  oneSkip?: boolean;
  /** The run parks (status waiting): its lease is released and waitingSince set; other commits leave both alone. */
  park?: boolean;
}

/** Values a commit statement may take, each bound only when the statement uses it. */
export type Param =
  | "runId"
  | "version"
  | "owner"
  | "run"
  | "events"
  | "at"
  | "eventCount"
  | "results"
  | "resultCount"
  | "starts"
  | "skips";

/**
 * The statement of a commit with `parts` (see the header above). A part the commit lacks leaves its
 * CTE, its guard and its write out of the statement (PostgreSQL then initialises and runs a smaller
 * plan for every commit: most commits of a chain have one result and one start, no skip), and the
 * counts the guards compare with are bound values rather than counts over the CTEs. Parameters
 * are numbered in the order the text uses them; `params` says which value goes where.
 */
function commitStatement(
  bump: (p: (name: Param) => string, parts: Parts) => Bump,
  parts: Parts,
): { text: string; params: Param[] } {
  const params: Param[] = [];
  const p = (name: Param) => {
    let i = params.indexOf(name);
    if (i < 0) i = params.push(name) - 1;
    return `$${i + 1}`;
  };
  const [runId, version, owner, run] = [p("runId"), p("version"), p("owner"), p("run")];
  const b = bump(p, parts);
  const ctes: string[] = [];
  if (parts.results) {
    ctes.push(`res AS (
  SELECT * FROM ${parts.oneResult ? "jsonb_to_record" : "jsonb_to_recordset"}(${p("results")}::jsonb) AS r("nodeId" text, iteration int, attempt int, status text, output jsonb, branch text,
    "promptTokens" int, "completionTokens" int, "latencyMs" int, error text, at timestamp(3), apply boolean)
)`);
  }
  if (parts.starts) {
    ctes.push(`st AS (
  SELECT * FROM jsonb_to_recordset(${p("starts")}::jsonb) AS s(id text, "nodeId" text, iteration int, attempt int, input jsonb, at timestamp(3),
    status text, output jsonb, branch text, "promptTokens" int, "completionTokens" int, "latencyMs" int, error text, "finishedAt" timestamp(3))
)`);
  }
  if (parts.skips)
    ctes.push(
      `sk AS (\n  SELECT * FROM ${parts.oneSkip ? "jsonb_to_record" : "jsonb_to_recordset"}(${p("skips")}::jsonb) AS k(id text, "nodeId" text, iteration int, at timestamp(3))\n)`,
    );
  ctes.push(
    `ev AS (\n  SELECT e.v->>'type' AS type, e.v->'payload' AS payload, e.ord::int AS ord FROM jsonb_array_elements(${p("events")}::jsonb) WITH ORDINALITY AS e(v, ord)\n)`,
  );
  const eventCount = `${p("eventCount")}::int`;
  // a result's (or skip's) Step row by its whole key: with one, from the bound object itself (values
  // PostgreSQL can look up in the unique index), with several, from each member of `res` (`sk`) in
  // `rowOf` below
  const of = (param: Param, field: string, type = "") => `(${p(param)}::jsonb->>'${field}')${type}`;
  const one = (field: string, type = "") => of("results", field, type);
  const resultRow = parts.oneResult
    ? `s."runId" = ${runId} AND s."nodeId" = ${one("nodeId")} AND s.iteration = ${one("iteration", "::int")} AND s.attempt = ${one("attempt", "::int")}`
    : `s."runId" = ${runId} AND s."nodeId" = res."nodeId" AND s.iteration = res.iteration AND s.attempt = res.attempt`;
  const open = (cancelled: string) =>
    `(s.status IN ('waiting', 'retrying') OR (s.status = 'running' AND (s."leaseOwner" = ${owner} OR ${cancelled} = 'cancelled')))`;
  // each member of a set (`res`, `sk`) looks its row up in the unique index: a LATERAL subquery with a
  // LIMIT is never flattened into a join, so it runs once per member with the member's key as its
  // index condition (a plain join or EXISTS may be planned as a hash join over all the run's rows)
  const rowOf = (from: string, cond: string, select = "1") =>
    `${from} CROSS JOIN LATERAL (SELECT ${select} FROM "Step" s WHERE ${cond} LIMIT 1) hit`;
  const skipRow = (node: string, iteration: string) =>
    `s."runId" = ${runId} AND s."nodeId" = ${node} AND s.iteration = ${iteration}`;
  const guards = [
    parts.results
      ? parts.oneResult
        ? `EXISTS (SELECT 1 FROM "Step" s WHERE ${resultRow} AND ${open(one("status"))})`
        : `(SELECT count(*) FROM ${rowOf("res", `${resultRow} AND ${open("res.status")}`)}) = ${p("resultCount")}::int`
      : "",
    parts.skips
      ? parts.oneSkip
        ? `NOT EXISTS (SELECT 1 FROM "Step" s WHERE ${skipRow(of("skips", "nodeId"), of("skips", "iteration", "::int"))})`
        : `NOT EXISTS (SELECT 1 FROM ${rowOf("sk", skipRow(`sk."nodeId"`, "sk.iteration"))})`
      : "",
  ].filter(Boolean);
  ctes.push(`bump AS (
  UPDATE "Run" SET ${b.set},
    status = COALESCE((${run}::jsonb->>'status')::"RunStatus", status),
    state = COALESCE(${run}::jsonb->'state', state),
    outputs = CASE WHEN ${run}::jsonb ? 'outputs' THEN ${run}::jsonb->'outputs' ELSE outputs END,
    reason = CASE WHEN ${run}::jsonb ? 'reason' THEN ${run}::jsonb->>'reason' ELSE reason END,
    "startedAt" = COALESCE((${run}::jsonb->>'startedAt')::timestamp(3), "startedAt"),
    "finishedAt" = COALESCE((${run}::jsonb->>'finishedAt')::timestamp(3), "finishedAt"),
    "promptTokens" = "promptTokens" + COALESCE((${run}::jsonb->>'addPrompt')::int, 0),
    "completionTokens" = "completionTokens" + COALESCE((${run}::jsonb->>'addCompletion')::int, 0),
    "stepCount" = "stepCount" + COALESCE((${run}::jsonb->>'addSteps')::int, 0),
${parts.park ? `    "waitingSince" = (${run}::jsonb->>'waitingSince')::timestamp(3),\n` : ""}    "nextSeq" = "nextSeq" + ${eventCount}
  WHERE id = ${runId} AND version = ${version} AND ${b.where}${guards.map((g) => `\n    AND ${g}`).join("")}
  RETURNING version, "nextSeq"
)`);
  if (parts.results) {
    // one result: its row by the whole key; several: each row's id, looked up as in the guard
    const target = parts.oneResult
      ? { from: "res", where: resultRow }
      : {
          from: `(SELECT res.*, hit.id AS "stepId" FROM ${rowOf("res", resultRow, "s.id")}) res`,
          where: `s.id = res."stepId"`,
        };
    ctes.push(`w_res AS (
  UPDATE "Step" s SET status = res.status::"StepStatus", output = res.output, branch = res.branch, "promptTokens" = res."promptTokens",
    "completionTokens" = res."completionTokens", "latencyMs" = res."latencyMs", error = res.error, "finishedAt" = CASE WHEN res.status = 'waiting' THEN NULL ELSE res.at END
  FROM ${target.from}, bump
  WHERE res.apply AND ${target.where}
  RETURNING 1
)`);
  }
  if (parts.starts) {
    ctes.push(`w_st AS (
  INSERT INTO "Step" (id, "runId", "nodeId", iteration, attempt, status, input, "startedAt", "leaseOwner", output, branch, "promptTokens",
    "completionTokens", "latencyMs", error, "finishedAt")
  SELECT st.id, ${runId}, st."nodeId", st.iteration, st.attempt, COALESCE(st.status, 'running')::"StepStatus", st.input, st.at, ${owner}, st.output, st.branch,
    COALESCE(st."promptTokens", 0), COALESCE(st."completionTokens", 0), st."latencyMs", st.error, st."finishedAt" FROM st, bump
  ON CONFLICT ("runId", "nodeId", iteration) DO UPDATE SET attempt = EXCLUDED.attempt, status = EXCLUDED.status, input = EXCLUDED.input,
    "startedAt" = EXCLUDED."startedAt", "leaseOwner" = EXCLUDED."leaseOwner", output = EXCLUDED.output, error = EXCLUDED.error,
    branch = EXCLUDED.branch, "finishedAt" = EXCLUDED."finishedAt", "latencyMs" = EXCLUDED."latencyMs",
    "promptTokens" = EXCLUDED."promptTokens", "completionTokens" = EXCLUDED."completionTokens"
  RETURNING 1
)`);
  }
  if (parts.skips) {
    ctes.push(`w_sk AS (
  INSERT INTO "Step" (id, "runId", "nodeId", iteration, status, "finishedAt", "leaseOwner")
  SELECT sk.id, ${runId}, sk."nodeId", sk.iteration, 'skipped', sk.at, ${owner} FROM sk, bump
  RETURNING 1
)`);
  }
  ctes.push(`w_ev AS (
  INSERT INTO "RunEvent" ("runId", seq, type, payload, "createdAt")
  SELECT ${runId}, bump."nextSeq" - ${eventCount} + ev.ord - 1, ev.type, ev.payload, ${p("at")}::timestamp(3) FROM bump, ev
  RETURNING 1
)`);
  return { text: `WITH ${ctes.join(", ")}\nSELECT * FROM bump`, params };
}

const COMMIT_BUMP = (p: (name: Param) => string, parts: Parts): Bump => ({
  // parking a run (status waiting) releases it: nobody holds a run that waits for a person
  set: `version = version + 1${parts.park ? `, "leaseOwner" = NULL` : ""}`,
  where: `"leaseOwner" = ${p("owner")} AND status IN ('queued', 'running')`,
});

/** The prepared statements by parts (at most 36), each built once per process. */
const prepared = new Map<string, { name: string; text: string; params: Param[] }>();

/** The prepared statement (name, text, which value binds to each `$n`) of a commit with `parts`. */
export function preparedCommit(parts: Parts): { name: string; text: string; params: Param[] } {
  const key = `commit_${parts.results ? (parts.oneResult ? "r1" : "r") : ""}${parts.starts ? "s" : ""}${parts.skips ? (parts.oneSkip ? "k1" : "k") : ""}${parts.park ? "p" : ""}`;
  let st = prepared.get(key);
  if (!st) {
    st = { name: `weft_run_${key}_v9`, ...commitStatement(COMMIT_BUMP, parts) };
    prepared.set(key, st);
  }
  return st;
}
