/**
 * B1 profiling aid (not part of the benchmark): where a step's time goes. Drives `n` runs of one
 * shape with runJob in THIS process (no BullMQ: startRun enqueues a job nobody takes, the driver is
 * called directly) through the real ports, each wrapped to time it, and prints per phase: calls per
 * run and median ms, plus wall and CPU time per run (process.cpuUsage: this process also runs the
 * scripted model server, as the bench process does). Phases: `startRun` (validation, Run insert,
 * enqueue), `claim`, `commit` (store round trip), `chat`/`structured` (model call incl. the scripted
 * server), `publish` (wake-up, fire and forget), and the gaps on the critical path of a chain
 * between a commit's return and the next model call (`commit→chat`: perform, template data,
 * executor prelude) and between a model answer and the next commit (`chat→commit`: mailbox, plan,
 * building the statement). The model is B1's trivial node functions (trivial-node.ts); B1_MODEL=http
 * makes it the scripted server over HTTP. B1_IDLE_MS=n leaves the process idle n ms between runs
 * (outside the measured phases; wall excludes it), as B1's worker is idle while the peer's runs
 * go: the same code then runs slower (cold caches, sleeping CPUs). It also prints the CPU time all
 * postgres processes used per run (proc-cpu.ts; ns resolution, steadier than wall time for comparing
 * SQL changes). B1_SQL="…" runs that SQL on the bench database before anything else (an experiment:
 * an index or constraint dropped, a storage setting). Usage (prints a CPU profile of the measured runs with PROF=file):
 *   [PROF=/tmp/b1.cpuprofile] [B1_MODEL=http] [B1_IDLE_MS=20] [B1_SQL=…] tsx --conditions=react-server bench/engine/phases.ts [shape=chain20] [n=20]
 */
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import { dropTestDatabase } from "@/test/db";
import { median } from "../stats";
import { benchEnvironment } from "./support";
import { cpuByPid, cpuMsSince } from "./proc-cpu";
import { ourRules, ourWorkflow } from "./ours";
import { SHAPES, type ShapeName } from "./shapes";
import { trivialModelPort } from "./trivial-node";

const shape = (process.argv[2] ?? "chain20") as ShapeName;
const n = Number(process.argv[3] ?? 20);
const { database } = await benchEnvironment({ experimentSql: process.env.B1_SQL });
const { startScriptedServer } = await import("@/lib/llm/scripted/server");
const { disconnectDb } = await import("@/lib/db/client");
const { startRun } = await import("@/lib/runs/service");
const { enginePorts } = await import("@/workers/engine-ports");
const { runJob } = await import("@/lib/engine/driver");
const { createLogger } = await import("@/lib/logger");
const { createTestUser, createTestWorkflow } = await import("@/test/fixtures");
const { closeApiRedis, closeRunsQueue, runsQueue } = await import("@/lib/queue");
const { closeRunStorePool } = await import("@/lib/run-store/run-sql");
const model = await startScriptedServer({ fixtures: [{ rules: ourRules }] });
process.env.WEFT_SCRIPTED_MODEL_PORT = String(model.port);
const owner = (await createTestUser()).id;
const wf = (await createTestWorkflow(owner, ourWorkflow(shape))).workflowId;

const trivial = trivialModelPort();
const samples: Record<string, number[]> = {};
const add = (k: string, ms: number) => (samples[k] ??= []).push(ms);
let last: { kind: string; at: number } | undefined;
/** Times one port call; commits and model calls also record the gap since the previous one ended. */
async function timed<T>(kind: string, call: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const chained = kind !== "publish" && kind !== "claim";
  if (chained && last) add(`${last.kind}→${kind}`, t0 - last.at);
  try {
    return await call();
  } finally {
    const t1 = performance.now();
    add(kind, t1 - t0);
    if (chained) last = { kind: kind === "structured" ? "chat" : kind, at: t1 };
  }
}

async function once(): Promise<void> {
  const t0 = performance.now();
  const { run } = await startRun(owner, wf, { inputs: {} });
  add("startRun", performance.now() - t0);
  const ports = enginePorts(owner, createLogger({ component: "b1-phases" }));
  const { store, events } = ports;
  const m = process.env.B1_MODEL === "http" ? ports.model : trivial;
  ports.store = {
    ...store,
    commit: (id, c) => timed("commit", () => store.commit(id, c)),
    claimRun: (id, o) => timed("claim", () => store.claimRun(id, o)),
  };
  ports.model = {
    chat: (r) => timed("chat", () => m.chat(r)),
    structured: (r) => timed("structured", () => m.structured(r)),
  };
  ports.events = { published: (id, e) => timed("publish", async () => events?.published(id, e)) };
  last = undefined;
  const out = await runJob(ports, run.id, { owner: `b1-phases:${run.id}` });
  if (out.kind !== "terminal" || out.status !== "succeeded") throw new Error(`run ended ${JSON.stringify(out)}`);
}

for (let i = 0; i < 5; i++) await once(); // warm-up
for (const k of Object.keys(samples)) delete samples[k];
const session = new Session();
session.connect();
if (process.env.PROF) {
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
}
const idleMs = Number(process.env.B1_IDLE_MS ?? 0);
const cpu0 = process.cpuUsage();
const pg0 = cpuByPid("postgres");
let busy = 0;
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  await once();
  busy += performance.now() - t0;
  if (idleMs > 0) await new Promise((r) => setTimeout(r, idleMs));
}
const cpu = process.cpuUsage(cpu0);
const pgMs = cpuMsSince(pg0, "postgres");
const wall = busy / n;
if (process.env.PROF) fs.writeFileSync(process.env.PROF, JSON.stringify((await session.post("Profiler.stop")).profile));
session.disconnect();
const steps = SHAPES[shape].steps;
process.stdout.write(
  `${shape}${idleMs ? ` (idle ${idleMs} ms between runs)` : ""}: wall ${wall.toFixed(1)} ms/run (${(wall / steps).toFixed(2)} ms/step), CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(1)} ms/run, postgres CPU ${(pgMs / n).toFixed(2)} ms/run\n`,
);
for (const [k, v] of Object.entries(samples)) {
  process.stdout.write(
    `  ${k.padEnd(14)} ${(v.length / n).toFixed(1).padStart(5)}/run  median ${median(v).toFixed(2)} ms\n`,
  );
}
// the start jobs nobody took (runJob was called directly): their keys would stay in Redis
await runsQueue()
  .obliterate({ force: true })
  .catch(() => undefined);
await closeRunsQueue();
await closeApiRedis();
await model.close();
await closeRunStorePool();
await disconnectDb();
await dropTestDatabase(database.name);
process.exit(0);
