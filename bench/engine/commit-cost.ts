/**
 * B1 profiling aid (not part of the benchmark): what one run commit costs PostgreSQL, measured
 * steadily enough to compare small changes to the commit statement (lib/run-store/run-sql.ts), where
 * whole runs (phases.ts) vary by more than the change. It records the commits the engine really
 * makes for one run of a shape (runJob in this process, B1's trivial nodes), then replays that
 * sequence through sqlCommit against `n` fresh Run rows, on ONE hot-path connection
 * (WEFT_DB_POOL_MAX=1), and prints per commit: wall ms (median and mean), the CPU that backend
 * used, and the CPU all postgres processes used (WAL writer and checkpointer included), from
 * /proc (proc-cpu.ts), then how PostgreSQL planned each prepared statement on that connection
 * (pg_prepared_statements: generic plans are reused, custom ones re-planned per execution). Each
 * of `rounds` repetitions prints its own figures, so drift shows as spread.
 *   npx tsx --conditions=react-server bench/engine/commit-cost.ts [shape=chain20] [n=100] [rounds=3]
 * B1_SQL="…" runs that SQL on the bench database first (an experiment, as in phases.ts).
 */
import { dropTestDatabase } from "@/test/db";
import { median } from "../stats";
import { benchEnvironment } from "./support";
import { cpuByPid, cpuMsOf, cpuMsSince } from "./proc-cpu";
import { ourWorkflow } from "./ours";
import type { ShapeName } from "./shapes";
import { trivialModelPort } from "./trivial-node";

const shape = (process.argv[2] ?? "chain20") as ShapeName;
const n = Number(process.argv[3] ?? 100);
const rounds = Number(process.argv[4] ?? 3);
const { database } = await benchEnvironment({ experimentSql: process.env.B1_SQL });
process.env.WEFT_DB_POOL_MAX = "1";
const { randomUUID } = await import("node:crypto");
const { disconnectDb } = await import("@/lib/db/client");
const { startRun } = await import("@/lib/runs/service");
const { enginePorts } = await import("@/workers/engine-ports");
const { runJob } = await import("@/lib/engine/driver");
const { createLogger } = await import("@/lib/logger");
const { createTestUser, createTestWorkflow } = await import("@/test/fixtures");
const { closeApiRedis, closeRunsQueue, runsQueue } = await import("@/lib/queue");
const { closeRunStorePool, runStorePool, sqlCommit } = await import("@/lib/run-store/run-sql");
type Commit = Parameters<typeof sqlCommit>[1];

const owner = (await createTestUser()).id;
const { workflowId, versionId } = await createTestWorkflow(owner, ourWorkflow(shape));

// one real run, its commits recorded in order
const recorded: Commit[] = [];
const { run } = await startRun(owner, workflowId, { inputs: {} });
const ports = enginePorts(owner, createLogger({ component: "b1-commit-cost" }));
const store = ports.store;
ports.store = { ...store, commit: (id, c) => (recorded.push(structuredClone(c)), store.commit(id, c)) };
ports.model = trivialModelPort();
ports.events = undefined;
const out = await runJob(ports, run.id, { owner: "b1-commit-cost" });
if (out.kind !== "terminal" || out.status !== "succeeded")
  throw new Error(`recording run ended ${JSON.stringify(out)}`);
const first = recorded[0]!;

const pool = runStorePool();
const backend = (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
/** A Run row in the state the first recorded commit expects (claimed by its owner, at its version). */
const freshRun = async (): Promise<string> => {
  const id = randomUUID();
  await pool.query(
    `INSERT INTO "Run" (id, "workspaceId", "workflowVersionId", status, version, "leaseOwner") VALUES ($1, $2, $3, 'running', $4, $5)`,
    [id, owner, versionId, first.expectedVersion, first.owner],
  );
  return id;
};
/** Replays the recorded commits on `runs` fresh rows; answers the wall ms of each commit. */
const replay = async (runs: number): Promise<number[]> => {
  const walls: number[] = [];
  for (let r = 0; r < runs; r++) {
    const id = await freshRun();
    let version = first.expectedVersion;
    for (const c of recorded) {
      const t0 = performance.now();
      const res = await sqlCommit(id, { ...c, expectedVersion: version });
      walls.push(performance.now() - t0);
      if (res.kind !== "ok") throw new Error(`replayed commit ${res.kind}`);
      version = res.version;
    }
  }
  return walls;
};

await replay(Math.max(5, Math.round(n / 10))); // warm-up
process.stdout.write(
  `${shape}: ${recorded.length} commits per run, replayed on ${n} runs × ${rounds} rounds (one connection)\n`,
);
/** The WAL position now, and the bytes written since an earlier one (PostgreSQL's own arithmetic). */
const walNow = async () =>
  (await pool.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn()::text AS lsn")).rows[0]!.lsn;
const walSince = async (lsn: string) =>
  Number(
    (
      await pool.query<{ bytes: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn) AS bytes", [
        lsn,
      ])
    ).rows[0]!.bytes,
  );
for (let i = 0; i < rounds; i++) {
  const wal0 = await walNow();
  const pg0 = cpuByPid("postgres");
  const b0 = cpuMsOf(backend);
  const walls = await replay(n);
  const all = cpuMsSince(pg0, "postgres");
  const walPerCommit = (await walSince(wal0)) / walls.length;
  const own = cpuMsOf(backend) - b0;
  const k = walls.length;
  // the fresh Run inserts are in the CPU figures too: one per recorded.length commits
  process.stdout.write(
    `  round ${i + 1}: wall median ${median(walls).toFixed(3)} mean ${(walls.reduce((a, b) => a + b, 0) / k).toFixed(3)} ms; backend CPU ${(own / k).toFixed(3)} ms, all postgres ${(all / k).toFixed(3)} ms, WAL ${Math.round(walPerCommit)} bytes per commit\n`,
  );
}
// how PostgreSQL planned the hot-path statements on this connection (custom plans are re-planned per execution)
for (const r of (
  await pool.query<{ name: string; generic_plans: string; custom_plans: string }>(
    "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name",
  )
).rows) {
  process.stdout.write(`  statement ${r.name}: ${r.generic_plans} generic, ${r.custom_plans} custom plans\n`);
}
// whether row updates stayed on their page (HOT: no index entries written) or moved (a new index entry in every index)
await pool.query("SELECT pg_stat_force_next_flush()").catch(() => undefined);
for (const r of (
  await pool.query<{ relname: string; n_tup_upd: string; n_tup_hot_upd: string }>(
    `SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname IN ('Run', 'Step') ORDER BY relname`,
  )
).rows) {
  process.stdout.write(`  table ${r.relname}: ${r.n_tup_upd} updates, ${r.n_tup_hot_upd} of them HOT\n`);
}
await runsQueue()
  .obliterate({ force: true })
  .catch(() => undefined);
await closeRunsQueue();
await closeApiRedis();
await closeRunStorePool();
await disconnectDb();
await dropTestDatabase(database.name);
process.exit(0);
