/**
 * B1 diagnostic, not an engine: the floor of the architecture B1 measures. A worker process that
 * takes the same BullMQ start jobs as the run worker (same queue, prefix and job options) and, for
 * each run, does only what "durable per step" cannot do without: one committed INSERT per batch of
 * steps that can commit together (a `step_finished` RunEvent row per step; no planner, executor,
 * Step rows or lease), in order: each step alone in the chain and the loop, and for the fan-out the
 * split, the 8 branches in one commit (as the engine batches results that arrive together), the
 * join. Then ONE statement marks the run succeeded with its `run_finished` event, and one wake-up.
 * Before the steps it reads the run once to learn its shape (where the real worker's claim rides
 * on its first commit). Its ratio to LangGraph sync in B1 (`B1_WORKER=floor npm run bench -- engine`)
 * is about what any engine on BullMQ + PostgreSQL + a separate worker process could reach on this
 * machine with today's startRun; the gap to the real worker is what our store and engine add.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { publishFinished, startDiagnosticWorker, whenRowLands } from "./diagnostic-worker";
import { SHAPES, type ShapeName } from "./shapes";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
/** Steps per commit for a shape: one per step, except the fan-out's 8 parallel branches, which commit together. */
const batchesOf = (shape: ShapeName): number[] =>
  shape === "fanout8"
    ? [1, 8, 1]
    : shape === "map20"
      ? [5, 5, 5, 5]
      : Array.from({ length: SHAPES[shape].steps }, () => 1);

/** A run's commits (steps per commit), from its version's document name ("B1 <shape>", bench/engine/ours.ts), read once per version. */
const batches = new Map<string, number[]>();
async function batchesFor(runId: string): Promise<number[] | null> {
  const row = (
    await pool.query<{ versionId: string; name: string }>({
      name: "floor_version",
      text: `SELECT r."workflowVersionId" AS "versionId", v.document->>'name' AS name FROM "Run" r JOIN "WorkflowVersion" v ON v.id = r."workflowVersionId" WHERE r.id = $1`,
      values: [runId],
    })
  ).rows[0];
  if (!row) return null;
  let b = batches.get(row.versionId);
  if (!b) {
    const shape = SHAPES[row.name.replace(/^B1 /, "") as ShapeName];
    if (!shape) throw new Error(`floor worker: not a B1 workflow: ${row.name}`);
    batches.set(row.versionId, (b = batchesOf(shape.name)));
  }
  return b;
}

/** $2 = the batch's first seq, $3 = its size: one row per step. */
const STEPS_SQL = `INSERT INTO "RunEvent" ("runId", seq, type, payload, "createdAt")
SELECT $1, s, 'step_finished', jsonb_build_object('nodeId', 'n' || s, 'status', 'succeeded', 'output', 'ok'), now() FROM generate_series($2::int, $2::int + $3::int - 1) AS s`;
const FINISH_SQL = `
WITH r AS (
  UPDATE "Run" SET status = 'succeeded', "startedAt" = now(), "finishedAt" = now(), "stepCount" = $2, "nextSeq" = $3 + 1, version = version + 1
  WHERE id = $1 RETURNING id
)
INSERT INTO "RunEvent" ("runId", seq, type, payload, "createdAt") SELECT r.id, $3, 'run_finished', '{"status":"succeeded"}'::jsonb, now() FROM r`;

async function runOnce(runId: string): Promise<void> {
  const b = await whenRowLands(() => batchesFor(runId));
  if (!b) throw new Error(`floor worker: run ${runId} not found`);
  let seq = 1;
  for (const size of b) {
    await pool.query({ name: "floor_steps", text: STEPS_SQL, values: [runId, seq, size] });
    seq += size;
  }
  const n = seq - 1;
  const last = seq;
  await pool.query({ name: "floor_finish", text: FINISH_SQL, values: [runId, n, last] });
  await publishFinished(runId, last);
}

await startDiagnosticWorker(
  `b1-floor-${randomBytes(3).toString("hex")}`,
  (job) => runOnce(job.runId),
  () => pool.end(),
);
