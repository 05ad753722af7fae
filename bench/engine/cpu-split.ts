/**
 * Where B1's CPU goes, per process: runs N runs of one shape through the real worker (ours) and N
 * LangGraph sync runs, back to back, and reports CPU ms per run of every process involved (this
 * process, the worker, redis-server, every postgres process) from /proc. Diagnostic, not a benchmark:
 * our wall time here is rounded up by the 50 ms polls, so compare the CPU columns; B1 times the arms.
 *   npx tsx --conditions=react-server bench/engine/cpu-split.ts chain20 60
 * B1_WORKER=floor|replay runs bench/engine/<name>-worker.ts instead of the run worker (the diagnostics of B1_WORKER in index.ts).
 * WORKER_PGOPTIONS sets the worker's PGOPTIONS (e.g. "-c plan_cache_mode=force_generic_plan"). WORKER_PROF=dir writes the worker's CPU profile there (node --cpu-prof, on exit). B1_RECORDER=0 leaves out the wake-up recorder (our end is found by polling the Run row either way).
 */
import pg from "pg";
import { dropTestDatabase } from "@/test/db";
import { langGraphArm } from "./langgraph-arm";
import { ourWorkflow } from "./ours";
import { SHAPES, type ShapeName } from "./shapes";
import { trivialCalls } from "./trivial-node";
import { benchEnvironment, wakeRecorder } from "./support";
import { cpuByPid, cpuMsBetween, cpuMsOf } from "./proc-cpu";

/** CPU ms so far of this process, the worker, redis-server and each postgres process (by pid: the pools' backends live through the runs; one that exits in between is not counted). */
const snapshot = (worker: number) => ({
  self: process.cpuUsage(),
  worker: cpuMsOf(worker),
  redis: [...cpuByPid("redis-server").values()].reduce((a, v) => a + v, 0),
  pg: cpuByPid("postgres"),
});
const diff = (a: ReturnType<typeof snapshot>, b: ReturnType<typeof snapshot>, worker: boolean) => {
  const self = (b.self.user + b.self.system - a.self.user - a.self.system) / 1000;
  return {
    self,
    worker: worker ? b.worker - a.worker : 0,
    redis: b.redis - a.redis,
    postgres: cpuMsBetween(a.pg, b.pg),
  };
};

const shape = (process.argv[2] ?? "chain20") as ShapeName;
const n = Number(process.argv[3] ?? 60);
const { database, prefix } = await benchEnvironment();
const { spawnWorker, stopWorker } = await import("@/test/helpers/worker");
const { startRun } = await import("@/lib/runs/service");
const { createTestUser, createTestWorkflow } = await import("@/test/fixtures");
const { closeApiRedis, closeRunsQueue } = await import("@/lib/queue");
const { closeRunStorePool } = await import("@/lib/run-store/run-sql");
const { closeRunLimiter } = await import("@/lib/limits/run-start-limit");
const { db } = await import("@/lib/db/client");
const owner = (await createTestUser()).id;
const wf = (await createTestWorkflow(owner, ourWorkflow(shape))).workflowId;
const worker = spawnWorker({
  databaseUrl: database.url,
  prefix,
  entry: process.env.B1_WORKER ? `bench/engine/${process.env.B1_WORKER}-worker.ts` : "bench/engine/worker.ts",
  env: {
    WEFT_RECONCILE_INTERVAL_MS: "30000",
    ...(process.env.WORKER_PGOPTIONS ? { PGOPTIONS: process.env.WORKER_PGOPTIONS } : {}),
  },
  nodeArgs: process.env.WORKER_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.WORKER_PROF}`] : [],
});
await worker.ready;
const recorder = process.env.B1_RECORDER === "0" ? null : await wakeRecorder(prefix);
const lg = await langGraphArm(database.url, trivialCalls());
const poll = new pg.Client({ connectionString: database.url });
await poll.connect();
/** Our run, its end found as in B1 (50 ms polls of the Run row). */
const ours = async () => {
  const { run } = await startRun(owner, wf, { inputs: {} });
  for (const deadline = Date.now() + 30_000; ;) {
    if (Date.now() > deadline)
      throw new Error(`run ${run.id} did not end in 30 s; worker log: ${worker.logs.slice(-5).join("\n")}`);
    const r = (await poll.query('SELECT status FROM "Run" WHERE id = $1', [run.id])).rows[0] as { status: string };
    if (!["queued", "running"].includes(r.status)) return;
    await new Promise((res) => setTimeout(res, 50));
  }
};
for (let i = 0; i < 5; i++) {
  await ours();
  await lg.runOnce(shape, "sync");
}
const wpid = worker.child.pid!;
for (const [arm, once] of [
  ["ours", ours],
  ["langgraph sync", () => lg.runOnce(shape, "sync")],
] as const) {
  const a = snapshot(wpid);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await once();
  const wall = performance.now() - t0;
  const d = diff(a, snapshot(wpid), arm === "ours");
  const per = (v: number) => (v / n).toFixed(2);
  console.log(
    `${arm} ${shape}: wall ${per(wall)} ms/run; CPU ms/run: bench process ${per(d.self)}, worker ${per(d.worker)}, redis ${per(d.redis)}, postgres ${per(d.postgres)}; total ${per(d.self + d.worker + d.redis + d.postgres)} (${SHAPES[shape].steps} steps)`,
  );
}
await stopWorker(worker);
await recorder?.close();
await lg.close();
await poll.end();
await closeRunStorePool();
await closeRunsQueue();
await closeApiRedis();
await closeRunLimiter();
await db().$disconnect();
await dropTestDatabase(database.name);
