/**
 * B1 profiling aid (not part of the benchmark): whether a commit that finishes several parallel
 * steps at once (a fan-in: several results in one commit) costs more on a long run. On runs whose
 * Step table holds `sizes` rows before it starts (default 10 and 3,000), it makes `n` rounds of: start
 * two branches (one commit), finish both (one commit with two results), through the real store on
 * one hot-path connection, and prints the finishing commit's median wall time and the CPU all
 * postgres processes used per round (proc-cpu.ts). Each result is looked up by its key
 * (lib/run-store/commit-statement.ts), so the cost must not grow with the run (bench/history.md). Usage:
 *   npx tsx --conditions=react-server bench/engine/fan-in-cost.ts [n=300] [sizes=10,3000]
 */
import { dropTestDatabase } from "@/test/db";
import { median } from "../stats";
import { cpuByPid, cpuMsSince } from "./proc-cpu";
import { benchEnvironment } from "./support";

const n = Number(process.argv[2] ?? 300);
const sizes = (process.argv[3] ?? "10,3000").split(",").map(Number);
const { database } = await benchEnvironment();
process.env.WEFT_DB_POOL_MAX = "1";
const { postgresStore } = await import("@/lib/run-store/postgres-store");
const { closeRunStorePool } = await import("@/lib/run-store/run-sql");
const { disconnectDb } = await import("@/lib/db/client");
const { createTestRun, createTestUser } = await import("@/test/fixtures");

const store = postgresStore();
const owner = (await createTestUser()).id;
const at = new Date();
const start = (nodeId: string, iteration: number) => ({ nodeId, iteration, attempt: 1, kind: "agent", input: {}, at });
const result = (nodeId: string, iteration: number) => ({
  nodeId,
  iteration,
  attempt: 1,
  status: "succeeded" as const,
  output: "ok",
  branch: "done",
  promptTokens: 0,
  completionTokens: 0,
  latencyMs: 1,
  error: null,
  at,
});
/** One commit that must land; answers the run's next version. */
async function commit(runId: string, c: Parameters<typeof store.commit>[1]): Promise<number> {
  const res = await store.commit(runId, c);
  if (!res.ok) throw new Error(`commit refused: ${res.reason}`);
  return res.version;
}

for (const size of sizes) {
  const runId = await createTestRun(owner, "queued");
  const claim = await store.claimRun(runId, "w");
  if (!claim.ok) throw new Error("claim refused");
  let v = await commit(runId, {
    owner: "w",
    expectedVersion: claim.run.version,
    stepStarts: Array.from({ length: size }, (_, i) => start(`old${i}`, 1)),
  });
  const times: number[] = [];
  const pg0 = cpuByPid("postgres");
  for (let i = 1; i <= n; i++) {
    v = await commit(runId, { owner: "w", expectedVersion: v, stepStarts: [start("a", i), start("b", i)] });
    const t0 = performance.now();
    v = await commit(runId, {
      owner: "w",
      expectedVersion: v,
      stepResults: [result("a", i), result("b", i)],
      run: { plannerState: { round: i } },
    });
    times.push(performance.now() - t0);
  }
  const pgMs = cpuMsSince(pg0, "postgres") / n;
  process.stdout.write(
    `run of ${size} rows (+2 per round): two-result commit median ${median(times).toFixed(3)} ms; postgres CPU per round ${pgMs.toFixed(3)} ms\n`,
  );
}
await closeRunStorePool();
await disconnectDb();
await dropTestDatabase(database.name);
process.exit(0);
