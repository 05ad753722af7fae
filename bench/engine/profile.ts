/**
 * B1 profiling aid (not part of the benchmark): drives `n` runs of one shape through an in-process
 * run worker (same code as workers/main.ts) and prints per-run ms/step plus the timeline of the
 * last run from the database (step start/finish, event times), and the transaction count
 * (pg_stat_database.xact_commit delta); with B1_LANGGRAPH=1 it then interleaves n runs of ours and
 * LangGraph sync and prints both medians. Usage:
 *   [B1_LANGGRAPH=1] tsx --conditions=react-server bench/engine/profile.ts [shape=chain20] [n=5]
 * Add `--cpu-prof` to node options (NODE_OPTIONS) to get a CPU profile of the whole thing.
 */
import pg from "pg";
import { createTestDatabase, dropTestDatabase, testQueuePrefix } from "@/test/db";
import { ChatOpenAI } from "@langchain/openai";
import { median } from "../stats";
import { langGraphArm, modelCalls } from "./langgraph-arm";
import { ourRules, ourWorkflow } from "./ours";
import { SHAPES, type ShapeName } from "./shapes";

const shape = (process.argv[2] ?? "chain20") as ShapeName;
const n = Number(process.argv[3] ?? 5);
const database = await createTestDatabase();
const { randomBytes } = await import("node:crypto");
process.env.AUTH_SECRET ??= randomBytes(32).toString("base64");
process.env.WEFT_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
Object.assign(process.env, {
  DATABASE_URL: database.url,
  WEFT_QUEUE_PREFIX: testQueuePrefix(),
  WEFT_RUN_START_LIMIT: "1000000",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
});
const { startScriptedServer } = await import("@/lib/llm/scripted/server");
const { db, disconnectDb } = await import("@/lib/db/client");
const { startRun } = await import("@/lib/runs/service");
const { startRunWorker } = await import("@/workers/run-worker");
const { createTestUser, createTestWorkflow } = await import("@/test/fixtures");
const { closeApiRedis, closeRunsQueue } = await import("@/lib/queue");
const model = await startScriptedServer({ fixtures: [{ rules: ourRules }] });
process.env.WEFT_SCRIPTED_MODEL_PORT = String(model.port);
const owner = (await createTestUser()).id;
const wf = (await createTestWorkflow(owner, ourWorkflow(shape))).workflowId;
const { spawnWorker, stopWorker } = await import("@/test/helpers/worker");
const spawned = process.env.B1_SPAWN
  ? spawnWorker({
      databaseUrl: database.url,
      prefix: process.env.WEFT_QUEUE_PREFIX!,
      modelPort: model.port,
      env: { LOG_LEVEL: "info" },
    })
  : undefined;
if (spawned) await spawned.ready;
const worker = spawned ? undefined : startRunWorker({ concurrency: 20, reconcileIntervalMs: 0 });
const stat = new pg.Client({ connectionString: database.url });
await stat.connect();
const xact = async () => {
  await stat.query("SELECT pg_stat_force_next_flush()").catch(() => undefined);
  return Number(
    (await stat.query("SELECT xact_commit FROM pg_stat_database WHERE datname = $1", [database.name])).rows[0]
      .xact_commit,
  );
};

const once = async () => {
  const { run } = await startRun(owner, wf, { inputs: {} });
  for (;;) {
    const s = (await stat.query('SELECT status FROM "Run" WHERE id = $1', [run.id])).rows[0] as { status: string };
    if (!["queued", "running"].includes(s.status)) {
      const r = await db().run.findUniqueOrThrow({ where: { id: run.id } });
      if (r.status !== "succeeded") throw new Error(`${r.status} ${r.reason}`);
      return r;
    }
    await new Promise((res) => setTimeout(res, 5));
  }
};
await once();
const x0 = await xact();
let last;
const perStep: number[] = [];
for (let i = 0; i < n; i++) {
  last = await once();
  perStep.push((last.finishedAt!.getTime() - last.createdAt.getTime()) / SHAPES[shape].steps);
}
const x1 = await xact();
process.stdout.write(
  `${shape}: ours ms/step ${perStep.map((v) => v.toFixed(2)).join(" ")}; xact/run ≈ ${((x1 - x0) / n).toFixed(1)} (incl. polling)\n`,
);
if (process.env.B1_LANGGRAPH) {
  const chat = new ChatOpenAI({
    model: "scripted-demo",
    apiKey: "x",
    maxRetries: 0,
    configuration: { baseURL: model.url },
  });
  const lg = await langGraphArm(database.url, modelCalls(chat));
  const ours: number[] = [];
  const theirs: number[] = [];
  await lg.runOnce(shape, "sync");
  for (let i = 0; i < n; i++) {
    const r = await once();
    ours.push((r.finishedAt!.getTime() - r.createdAt.getTime()) / SHAPES[shape].steps);
    theirs.push((await lg.runOnce(shape, "sync")).ms / SHAPES[shape].steps);
  }
  await lg.close();
  process.stdout.write(
    `interleaved: ours p50 ${median(ours).toFixed(2)} vs LangGraph sync p50 ${median(theirs).toFixed(2)} ms/step → ratio ${(median(ours) / median(theirs)).toFixed(2)}\n`,
  );
}
const steps = await db().step.findMany({ where: { runId: last!.id }, orderBy: { startedAt: "asc" } });
const events = await db().runEvent.findMany({ where: { runId: last!.id }, orderBy: { seq: "asc" } });
const t0 = last!.createdAt.getTime();
process.stdout.write(
  `run: created 0 started ${last!.startedAt!.getTime() - t0} finished ${last!.finishedAt!.getTime() - t0}\n`,
);
for (const s of steps)
  process.stdout.write(
    `step ${s.nodeId}#${s.iteration}: ${s.startedAt!.getTime() - t0} → ${s.finishedAt!.getTime() - t0} (latency ${s.latencyMs})\n`,
  );
process.stdout.write(`events: ${events.map((e) => `${e.seq}:${e.type}@${e.createdAt.getTime() - t0}`).join(" ")}\n`);
await worker?.close();
if (spawned) {
  await stopWorker(spawned);
  process.stdout.write(`worker log lines: ${spawned.logs.length}\n`);
}
await stat.end();
await closeRunsQueue();
await closeApiRedis();
await model.close();
await disconnectDb();
await dropTestDatabase(database.name);
process.exit(0);
