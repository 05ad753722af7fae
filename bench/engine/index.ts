/**
 * B1 (docs/benchmarks.md): engine overhead per step, this engine vs LangGraph.js + PostgresSaver.
 * "Same trivial node functions in both arms": every node answers at once, in process
 * (trivial-node.ts). Ours: a real worker process (bench/engine/worker.ts = workers/process.ts with
 * the trivial functions as its model port), BullMQ, PostgreSQL (durable per step), Redis wake-ups;
 * each step still runs its agent or router executor. LangGraph: same shapes, each node one call of
 * the same functions, PostgresSaver on the same PostgreSQL server, durability sync and async.
 * A second table (`withModelCall`) repeats the timings with one real model request per node in
 * both arms instead: ChatOpenAI over HTTP to the scripted server, which runs in a process of its
 * own (support.ts modelServerProcess), our worker being workers/main.ts itself. That request is
 * the same in both arms and is not engine overhead, but it shows what a step costs end to end.
 * A third table (`remoteServices`, trivial nodes; remote.ts) puts PostgreSQL and Redis "on the network" for
 * both arms: a latency proxy in its own process (latency-proxy.ts) holds each of their answers
 * B1_REMOTE_DELAY_MS (default 1; the round trip it really adds is measured and reported), as with
 * a managed database in the same region. The goal is judged on the first table (loopback).
 * Time per run, both arms measured as wall time in this process:
 *  - ours: from just before startRun() (validation, Run insert, enqueue included) until this process
 *    receives the Redis wake-up the worker publishes AFTER the commit holding run_finished (the
 *    pub/sub hop is included, so the final commit is); `db` keeps the older Run.finishedAt −
 *    Run.createdAt figure (excludes the final commit);
 *  - LangGraph: the invoke() call (its last checkpoint included).
 * ms/step = ms / shape.steps in both arms (our start/end nodes are extra steps we do not count).
 * The LangGraph arm's node calls get a per-call child of the graph run's signal (langgraph-arm.ts
 * perCallSignal): openai 6.x adds an abort listener to the caller's signal per request and never
 * removes it, so the run's own signal leaked one listener per node (MaxListenersExceededWarning).
 * Where our time goes per phase: bench/engine/phases.ts; timelines: bench/engine/profile.ts.
 * `split` (trivial nodes) repeats the first table with two diagnostic workers in place of ours, to
 * split our time per step: floor-worker.ts (the architecture's floor: startRun, BullMQ, one plain
 * INSERT commit per step or batch of parallel steps, one wake-up) and replay-worker.ts (our real
 * commit statements replayed back to back, no engine between them). Ours − replay is the engine's
 * own cost per step, replay − floor the cost of our commit statements above a plain insert.
 * B1_WORKER=floor|replay measures only that row (not stored). WEFT_STEP_LOG_MS=0 runs our workers
 * without the step log (lib/run-store/held-runs.ts; not for the stored result).
 * B1_QUICK=1 (not stored) measures only the first table, with 15 repetitions instead of 30 (≈ 15 s instead of ≈ 4 min), to compare
 * changes run against run; B1_TIMING=1 has our worker time its store calls (store-timing.ts: the
 * first claim, each commit's round trip, the engine's gap between commits) and prints them.
 * `oursTimeline` (every table, stored) splits our run's time into its start, its commits and its end
 * (see Timeline below); B1_TIMELINE=1 prints it too.
 * `pairedRatioSync` (every table) is the median over repetitions of ours ÷ LangGraph sync, each
 * pair measured one after the other: this machine's speed drifts by a quarter or more within
 * minutes, and a drift between repetitions cancels within a pair but not in the ratio of the two p50s. The
 * goal is judged on `ratioSync`, the ratio of the p50s. `ratioSyncCi95` (every table, and printed
 * in brackets) is its 95 % bootstrap interval over the repetitions (stats.ts
 * bootstrapRatioOfMedians, pairs resampled together): how far the ratio could move from the
 * repetitions' spread alone. Drift between full runs minutes apart comes on top of it, so a goal
 * "met reliably" needs the interval under 0.5 in run after run.
 * Commits (trivial nodes): pg_stat_database.xact_commit delta of the bench database (every
 * statement outside an explicit transaction counts as one), read after the measured processes'
 * connections closed (PostgreSQL counts a backend's commits when it flushes its statistics): our
 * worker is stopped and this process's run-store pool ended, the LangGraph runs use a pool of their
 * own that is ended; this process's own polling queries are subtracted. Statements: counted at the
 * client for LangGraph (countingPool, the saver's setup excluded) and by the worker's run store
 * (reported at shutdown) plus startRun's two per run. Throughput: trivial nodes, 1 and 2 worker processes.
 */
import os from "node:os";
import pg from "pg";
import { ChatOpenAI } from "@langchain/openai";
import { dropTestDatabase } from "@/test/db";
import { bootstrapRatioOfMedians, median, p95, machine, readResult, writeResult } from "../stats";
import type { WorkerProcess } from "@/test/helpers/worker";
import { langGraphArm, modelCalls, type Durability, type LangGraphArm } from "./langgraph-arm";
import { ourRules, ourWorkflow } from "./ours";
import { SHAPES, type ShapeName } from "./shapes";
import { trivialCalls } from "./trivial-node";
import { benchEnvironment, modelServerProcess, versions, wakeRecorder, workerStoreStats } from "./support";

type Row = { p50: number; p95: number; samples: number };
type Result = {
  ours: Record<string, Row>;
  langgraphSync: Record<string, Row>;
  langgraphAsync: Record<string, Row>;
  ratioSync: Record<string, number>;
  ratioSyncCi95: Record<string, [number, number]>;
  ratioAsync: Record<string, number>;
  pairedRatioSync: Record<string, number>;
  storeTiming?: unknown;
  [k: string]: unknown;
};
const FILE = "engine-b1.json";
const SHAPE_NAMES = Object.keys(SHAPES) as ShapeName[];

/** Entry point for `npm run bench -- engine [--smoke]`. */
export async function run({ smoke }: { smoke: boolean }): Promise<{ summary: string; ok: boolean }> {
  const { database, prefix } = await benchEnvironment();
  const { spawnWorker, stopWorker, waitTerminal } = await import("@/test/helpers/worker");
  const { db } = await import("@/lib/db/client");
  const { startRun } = await import("@/lib/runs/service");
  const { createTestUser, createTestWorkflow } = await import("@/test/fixtures");
  const { closeApiRedis, closeRunsQueue, runsQueue } = await import("@/lib/queue");
  const { closeRunStorePool } = await import("@/lib/run-store/run-sql");
  const { withRemoteServices } = await import("./remote");
  const owner = (await createTestUser()).id;
  const wf = Object.fromEntries(
    await Promise.all(
      SHAPE_NAMES.map(async (s) => [s, (await createTestWorkflow(owner, ourWorkflow(s))).workflowId] as const),
    ),
  );
  // the production reconciler period (30 s), so its scans do not count as the engine's statements
  const quietReconciler = { WEFT_RECONCILE_INTERVAL_MS: "30000" };
  const spawnTrivial = (entry = "bench/engine/worker.ts") =>
    spawnWorker({ databaseUrl: database.url, prefix, entry, env: quietReconciler });
  // the split of our time per step (see the header): the architecture's floor, and our store without the engine
  const SPLIT_WORKERS = { floor: "bench/engine/floor-worker.ts", replay: "bench/engine/replay-worker.ts" } as const;
  const diagnostic = process.env.B1_WORKER as keyof typeof SPLIT_WORKERS | undefined;
  if (diagnostic && !SPLIT_WORKERS[diagnostic])
    throw new Error(`B1_WORKER must be one of ${Object.keys(SPLIT_WORKERS).join(", ")}`);
  const trivialLg = await langGraphArm(database.url, trivialCalls());
  const wakes = await wakeRecorder(prefix);
  const stat = new pg.Client({ connectionString: database.url });
  await stat.connect();
  const xact = async () => {
    await stat.query("SELECT pg_stat_force_next_flush()").catch(() => undefined);
    const row = (await stat.query("SELECT xact_commit FROM pg_stat_database WHERE datname = $1", [database.name]))
      .rows[0] as { xact_commit: string };
    return Number(row.xact_commit) - 2; // this client's own two statements
  };
  let polls = 0;
  /**
   * Waits for a run to end: for the wake-up carrying its run_finished (published after that commit),
   * then reads its status (this process's own connection, counted) until the Run row says ended.
   * The worker writes a logged end's rows just after that wake-up (lib/runs held-commit.ts), so the
   * status is polled every 2 ms then — outside the measured span, and so that the peer's next run
   * never shares the machine with our run's last writes; every 50 ms if the wake-up did not come
   * within 10 s.
   */
  const finished = async (id: string) => {
    const woke = await wakes.ended(id, 10_000);
    for (;;) {
      polls++;
      const r = (await stat.query('SELECT status, reason FROM "Run" WHERE id = $1', [id])).rows[0] as {
        status: string;
        reason: string | null;
      };
      if (!["queued", "running"].includes(r.status)) return r;
      await new Promise((res) => setTimeout(res, woke ? 2 : 50));
    }
  };

  let dbMs = 0;
  let timeline: Timeline = { startRun: 0, toFirstCommit: 0, commits: 0, toWake: 0 };
  /** A time of this process's performance clock as epoch ms, the clock PostgreSQL rows and the worker stamp. */
  const epoch = (t: number) => performance.timeOrigin + t;
  const oursOnce = async (shape: ShapeName) => {
    const t0 = performance.now();
    const { run: r } = await startRun(owner, wf[shape]!, { inputs: {} });
    const started = performance.now();
    const end = await finished(r.id);
    if (end.status !== "succeeded") throw new Error(`${shape}: ${end.status} ${end.reason}`);
    polls++;
    // an event's createdAt is the worker's clock when it sent the commit holding it (run-store sqlCommit)
    const row = (
      await stat.query(
        `SELECT e.seq, r."createdAt", r."finishedAt", e."createdAt" AS "lastSent", (SELECT "createdAt" FROM "RunEvent" WHERE "runId" = $1 AND seq = 1) AS "firstSent"
       FROM "RunEvent" e JOIN "Run" r ON r.id = e."runId" WHERE e."runId" = $1 AND e.type = 'run_finished'`,
        [r.id],
      )
    ).rows[0] as { seq: number; createdAt: Date; finishedAt: Date; firstSent: Date; lastSent: Date };
    dbMs = row.finishedAt.getTime() - row.createdAt.getTime();
    const t1 = await wakes.at(r.id, row.seq);
    const [first, last] = [row.firstSent.getTime(), row.lastSent.getTime()];
    timeline = {
      startRun: started - t0,
      toFirstCommit: first - epoch(t0),
      commits: last - first,
      toWake: epoch(t1) - last,
    };
    return t1 - t0;
  };
  // steady state: both arms' code warmed by a few runs of every shape before anything is measured
  // 30 repetitions per table for the stored result: with 15 the ratio's 95 % interval was ±0.06–0.15 wide on a noisy machine
  const reps = smoke ? 3 : Number(process.env.B1_REPS ?? (process.env.B1_QUICK === "1" ? 15 : 30));
  const warmups = smoke ? 1 : Number(process.env.B1_WARMUPS ?? 5);
  const shapes: ShapeName[] = smoke ? ["chain20"] : SHAPE_NAMES;
  const durabilities: Durability[] = smoke ? ["sync"] : ["sync", "async"];

  /** Interleaved repetitions of both arms on every shape, with `worker` running our runs and `lg` the peer's. */
  const measure = async (worker: WorkerProcess, lg: LangGraphArm): Promise<Result> => {
    const samples = {
      ours: {} as Record<string, number[]>,
      oursDb: {} as Record<string, number[]>,
      sync: {} as Record<string, number[]>,
      async: {} as Record<string, number[]>,
    };
    const timelines: Partial<Record<ShapeName, Timeline[]>> = {};
    const push = (arm: keyof typeof samples, s: ShapeName, ms: number) =>
      (samples[arm][s] ??= []).push(ms / SHAPES[s].steps);
    await worker.ready;
    try {
      for (let i = 0; i < warmups; i++)
        for (const s of shapes) {
          await oursOnce(s);
          for (const d of durabilities) await lg.runOnce(s, d);
        }
      for (let rep = 0; rep < reps; rep++) {
        for (const s of shapes) {
          push("ours", s, await oursOnce(s));
          push("oursDb", s, dbMs);
          (timelines[s] ??= []).push(timeline);
          for (const d of durabilities) push(d, s, (await lg.runOnce(s, d)).ms);
        }
      }
    } finally {
      await stopWorker(worker);
    }
    const timing = worker.logs.find((l) => l.includes('"b1 store timing"'));
    const rows = (arm: keyof typeof samples) =>
      Object.fromEntries(
        Object.entries(samples[arm]).map(([s, v]) => [
          s,
          { p50: round(median(v)), p95: round(p95(v)), samples: v.length },
        ]),
      );
    const result: Result = {
      ours: rows("ours"),
      oursDbClock: rows("oursDb"),
      oursTimeline: medianTimelines(timelines),
      langgraphSync: rows("sync"),
      langgraphAsync: rows("async"),
      ratioSync: {},
      ratioSyncCi95: {},
      ratioAsync: {},
      pairedRatioSync: {},
    };
    if (timing) result.storeTiming = (JSON.parse(timing) as { timings: unknown }).timings;
    for (const s of shapes) {
      const sync = samples.sync[s]!;
      result.pairedRatioSync[s] = round(median(samples.ours[s]!.map((v, i) => v / sync[i]!)));
      result.ratioSync[s] = round(result.ours[s]!.p50 / result.langgraphSync[s]!.p50);
      result.ratioSyncCi95[s] = bootstrapRatioOfMedians(samples.ours[s]!, sync).map(round) as [number, number];
      if (result.langgraphAsync[s]) result.ratioAsync[s] = round(result.ours[s]!.p50 / result.langgraphAsync[s]!.p50);
    }
    return result;
  };

  const line = (r: Result) =>
    shapes
      .map(
        (s) =>
          `${s} ${r.ours[s]!.p50}ms/step vs LG sync ${r.langgraphSync[s]!.p50} (×${r.ratioSync[s]} [${r.ratioSyncCi95[s]!.join("–")}], paired ×${r.pairedRatioSync[s]})`,
      )
      .join("; ") +
    (r.storeTiming ? `\n  our worker's store calls, ms: ${JSON.stringify(r.storeTiming)}` : "") +
    (process.env.B1_TIMELINE === "1" ? `\n  our runs' timeline, ms per run: ${JSON.stringify(r.oursTimeline)}` : "");
  const result = await measure(spawnTrivial(diagnostic ? SPLIT_WORKERS[diagnostic] : undefined), trivialLg);
  if (diagnostic) {
    await cleanup();
    return { summary: `${diagnostic} worker (${SPLIT_WORKERS[diagnostic]}, not stored): ${line(result)}`, ok: true };
  }
  if (process.env.B1_QUICK === "1" && !smoke) {
    await cleanup();
    return {
      summary: `B1_QUICK (first table only, not stored)${process.env.WEFT_STEP_LOG_MS ? `, WEFT_STEP_LOG_MS=${process.env.WEFT_STEP_LOG_MS}` : ""}: ${line(result)}`,
      ok: true,
    };
  }
  if (smoke) {
    await cleanup();
    // The machine's speed varies with load; the ratio to the peer measured in the same minute does much less.
    const base = (await readResult<Result>(FILE))?.ratioSync.chain20;
    const now = result.ratioSync.chain20!;
    return {
      summary: `chain20 ours ${result.ours.chain20!.p50} ms/step vs LangGraph sync ${result.langgraphSync.chain20!.p50}: ratio ${now} (stored ${base ?? "none"})`,
      ok: base === undefined || now < 2 * base,
    };
  }

  // where our time per step goes, in the same conditions: the floor and the replay worker against the same LangGraph arm
  const split: Record<string, Result> = {};
  for (const [name, entry] of Object.entries(SPLIT_WORKERS))
    split[name] = await measure(spawnTrivial(entry), trivialLg);

  // the same, with one model request over HTTP per node in both arms
  const model = await modelServerProcess(ourRules);
  const chat = new ChatOpenAI({
    model: "scripted-demo",
    apiKey: "x",
    maxRetries: 0,
    configuration: { baseURL: model.url },
  });
  const httpLg = await langGraphArm(database.url, modelCalls(chat));
  const withModelCall = await measure(
    spawnWorker({ databaseUrl: database.url, prefix, modelPort: model.port, env: quietReconciler }),
    httpLg,
  );
  await httpLg.close();
  await model.close();

  // the same (trivial nodes) with PostgreSQL and Redis "on the network" for both arms (remote.ts;
  // the wake-up recorder, which only times our end, stays direct)
  const remote = await withRemoteServices(database.url, REMOTE_DELAY_MS, async (dbUrl, redis) => {
    const lg = await langGraphArm(dbUrl, trivialCalls());
    try {
      return await measure(
        spawnWorker({
          databaseUrl: dbUrl,
          prefix,
          entry: "bench/engine/worker.ts",
          env: { ...quietReconciler, REDIS_URL: redis },
        }),
        lg,
      );
    } finally {
      await lg.close();
    }
  });

  // commits and statements per step. PostgreSQL counts a backend's commits when it flushes its
  // statistics (on exit, or after a second idle), so every measured connection is closed before
  // reading: our worker is stopped and this process's run-store pool (startRun) ended; the
  // LangGraph runs get a pool of their own, ended too.
  const settle = async () => {
    await closeRunStorePool();
    await new Promise((r) => setTimeout(r, 1500));
  };
  const commits: Record<string, unknown> = {};
  for (const s of shapes) {
    const w = spawnTrivial();
    await w.ready;
    const n = 3;
    await settle();
    const before = await xact();
    polls = 0;
    for (let i = 0; i < n; i++) await finished((await startRun(owner, wf[s]!, { inputs: {} })).run.id);
    await stopWorker(w);
    await settle();
    const after = await xact();
    const store = workerStoreStats(w.logs);
    const counted = await langGraphArm(database.url, trivialCalls());
    await settle();
    const lgBefore = await xact();
    for (let i = 0; i < n; i++) await counted.runOnce(s, "sync");
    const lgStatements = counted.statements();
    await counted.close();
    await settle();
    const lgAfter = await xact();
    const steps = n * SHAPES[s].steps;
    commits[s] = {
      oursCommitsPerStep: round((after - before - polls) / steps),
      // the worker's statements (claims, commits, cancel polls) + startRun's two (target read, Run insert)
      oursStatementsPerStep: store ? round((store.sqlStatements + store.cancelPolls + 2 * n) / steps) : null,
      oursTransactionalCommits: store?.transactionalCommits ?? null,
      langgraphSyncCommitsPerStep: round((lgAfter - lgBefore) / steps),
      langgraphSyncStatementsPerStep: round(lgStatements / steps),
    };
  }

  // throughput: 20 concurrent chain20 runs with 1 and 2 worker processes
  const throughput: Record<string, unknown> = {};
  for (const workers of [1, 2]) {
    const ws = Array.from({ length: workers }, () => spawnTrivial());
    await Promise.all(ws.map((w) => w.ready));
    const t0 = Date.now();
    const ids = await Promise.all(
      Array.from({ length: 20 }, async () => (await startRun(owner, wf.chain20!, { inputs: {} })).run.id),
    );
    await Promise.all(ids.map((id) => waitTerminal(id, 300_000)));
    const secs = (Date.now() - t0) / 1000;
    throughput[`${workers}worker`] = {
      runs: 20,
      seconds: round(secs),
      stepsPerSec: round((20 * SHAPES.chain20.steps) / secs),
      runsPerSec: round(20 / secs),
    };
    for (const w of ws) await stopWorker(w);
  }
  const pgVersion = String((await stat.query("SHOW server_version")).rows[0]?.server_version);
  const out = {
    nodes: "trivial (trivial-node.ts)",
    ...result,
    split,
    withModelCall,
    remoteServices: remote,
    commits,
    throughput,
    method: "see bench/engine/index.ts header",
    reps,
    warmups,
    loadAverage: os.loadavg(),
    machine: await machine(),
    versions: { ...versions(), postgres: pgVersion },
    at: new Date().toISOString(),
  };
  // WEFT_STEP_LOG_MS changes our worker's store, B1_TIMING wraps it: never the stored result
  const diagnosticStore = process.env.WEFT_STEP_LOG_MS !== undefined || process.env.B1_TIMING === "1";
  if (!diagnosticStore) await writeResult(FILE, out);
  await cleanup();
  return {
    summary: `${diagnosticStore ? "WEFT_STEP_LOG_MS / B1_TIMING, not stored: " : ""}trivial nodes: ${line(result)}\n${Object.entries(
      split,
    )
      .map(([name, r]) => `split, ${name} worker: ${line(r)}`)
      .join(
        "\n",
      )}\nwith a model request per node: ${line(withModelCall)}\nremote services (+${remote.addedRoundTripMs} ms per round trip): ${line(remote)}`,
    ok: true,
  };

  async function cleanup() {
    await wakes.close();
    await stat.end();
    await trivialLg.close();
    await runsQueue()
      .obliterate({ force: true })
      .catch(() => undefined);
    await closeRunsQueue();
    await closeApiRedis();
    await db().$disconnect();
    await dropTestDatabase(database.name);
  }
}
const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Where one of our runs' time goes, ms per run (not per step), from this process's clock and the
 * commit times the worker stamps on events: `startRun` (the call's own duration: rate limit, Run
 * insert and enqueue), `toFirstCommit` (from the call until the worker sends its first commit: the
 * enqueue, BullMQ's hand-over, the job's set-up and the claim; overlaps `startRun`), `commits`
 * (first commit sent until the last one, holding run_finished, is sent: the steps), `toWake` (the
 * last commit's round trip, then the wake-up's publish until this process receives it). The
 * event times have millisecond resolution; medians over the repetitions.
 */
type Timeline = { startRun: number; toFirstCommit: number; commits: number; toWake: number };

function medianTimelines(all: Partial<Record<ShapeName, Timeline[]>>): Partial<Record<ShapeName, Timeline>> {
  const of = (ts: Timeline[], k: keyof Timeline) => round(median(ts.map((t) => t[k])));
  return Object.fromEntries(
    Object.entries(all).map(([s, ts]) => [
      s,
      {
        startRun: of(ts, "startRun"),
        toFirstCommit: of(ts, "toFirstCommit"),
        commits: of(ts, "commits"),
        toWake: of(ts, "toWake"),
      },
    ]),
  );
}

/** How long the latency proxy holds each answer (ms); the round trip it really adds is measured. */
const REMOTE_DELAY_MS = Number(process.env.B1_REMOTE_DELAY_MS ?? 1);
