/**
 * B2b token streaming: RUNS concurrent runs, each one agent step whose model (the scripted server,
 * over HTTP, in this process so it can stamp each chunk as it writes it) streams TOKENS tokens at
 * RATE tokens/s; one headless Chromium page watches every run through the product's event stream
 * (bench/live/server.ts, lib/events/sse.ts) and stamps each token when it appears and when it is
 * painted (token-page.ts). Half way through, every connection is destroyed once (the forced
 * reconnect; EventSource comes back with Last-Event-ID).
 * Arms, each with a worker process of its own (workers/process.ts, the real engine, BullMQ,
 * PostgreSQL, Redis):
 * - product: live text over the ephemeral Redis channel (lib/events/live-text-writer.ts);
 * - naive: every token appended to the durable event log and woken up like a status event
 *   (bench/live/naive-worker.ts).
 * Per arm: chunk → onmessage and chunk → paint (p50/p95, over the tokens written while the viewer
 * was connected; the ones written while it was away are reported apart), characters lost and
 * duplicated in the text each viewer ends with, PostgreSQL writes (rows inserted + updated +
 * deleted and transactions in the bench database, pg_stat_database, read after the worker exited;
 * RunEvent rows of the runs), the worker's SQL statements and its CPU ms per 1,000 tokens.
 * The product arm's delay is split at the web process's hub (`hubP95`: when the frame carrying a
 * token reached it, over the same Redis subscription the viewers use): chunk → hub is the worker
 * and Redis, hub → onmessage the SSE server and the browser.
 * `B2B_RUNS`, `B2B_TOKENS`, `B2B_ARMS` shorten a run for investigation (nothing stored then);
 * `B2B_WORKER_NODE_ARGS` passes node flags to the worker (a CPU profile).
 */
import os from "node:os";
import pg from "pg";
import { chromium, type Browser, type Page } from "@playwright/test";
import type { ruleSchema } from "@/lib/llm/scripted/fixture";
import type { WorkflowInput } from "@/lib/workflow/schema";
import type { z } from "zod";
import { benchEnvironment, workerStoreStats } from "../engine/support";
import { cpuMsOf } from "../engine/proc-cpu";
import { machine, median, p95, readResult, writeResult } from "../stats";

const RUNS = Number(process.env.B2B_RUNS ?? 20);
const TOKENS = Number(process.env.B2B_TOKENS ?? 1_500);
const RATE = 50;
/** Every token is this many characters (`r07w0001 `), so a text's length says which tokens it holds. */
const WIDTH = 9;
/** The model waits this long before its first chunk, so every viewer is connected when tokens start. */
const FIRST_CHUNK_DELAY_MS = 3_000;
const ARMS = ["product", "naive"] as const;
type TokenArm = (typeof ARMS)[number];
/** `B2B_ARMS=product` runs one arm, for investigation (nothing stored then). */
const ONLY_ARMS = (process.env.B2B_ARMS?.split(",") ?? [...ARMS]) as TokenArm[];
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-timer-throttling",
  "--disable-renderer-backgrounding",
  "--disable-backgrounding-occluded-windows",
];

const token = (run: number, i: number) => `r${String(run).padStart(2, "0")}w${String(i).padStart(4, "0")} `;
const fullText = (run: number) => Array.from({ length: TOKENS }, (_, i) => token(run, i)).join("");
const marker = (run: number) => `[[b2b-r${run}]]`;

function writer(run: number): WorkflowInput {
  return {
    name: `B2b writer ${run}`,
    agents: [{ key: "w", name: "Writer", instructions: "Write.", model: { model: "scripted-demo" } }],
    nodes: [
      { id: "start", type: "start" },
      { id: "write", type: "agent", agent: "w", task: `${marker(run)} Write the long text.` },
      { id: "end", type: "end" },
    ],
    edges: [
      { id: "e1", source: "start", sourceHandle: "next", target: "write" },
      { id: "e2", source: "write", sourceHandle: "done", target: "end" },
    ],
  };
}

const rules = (): z.input<typeof ruleSchema>[] =>
  Array.from({ length: RUNS }, (_, run) => ({
    id: `b2b-${run}`,
    match: { anyMessage: marker(run) },
    reply: { text: fullText(run), delayMs: FIRST_CHUNK_DELAY_MS, pace: { chunkMs: 1000 / RATE, chunkChars: WIDTH } },
  }));

export interface TokenArmResult {
  arm: TokenArm;
  runs: number;
  tokens: number;
  /** chunk written by the model server → onmessage / → painted (ms), tokens written while the viewer was connected. */
  msgP50: number;
  msgP95: number;
  paintP50: number;
  paintP95: number;
  /** chunk → the frame carrying the token reached the web process's hub (p50/p95, ms; product arm only, NaN otherwise). */
  hubP50: number;
  hubP95: number;
  /** Tokens written while the viewer was away (between the drop and its reconnect) and their paint p95. */
  whileAway: number;
  whileAwayPaintP95: number;
  /** Characters missing from / repeated in each viewer's final text, summed; frames resent or refused on the page. */
  lostChars: number;
  dupChars: number;
  overlapChars: number;
  gapFrames: number;
  /** pg_stat_database of the bench database over the arm: rows inserted + updated + deleted, transactions committed. */
  pg: {
    rowsWritten: number;
    xactCommit: number;
    runEventRows: number;
    workerStatements: number | null;
    rowsWrittenPerToken: number;
  };
  /** First chunk written → last token painted, and → last chunk written (ms): how far delivery trailed the model. */
  deliveredMs: number;
  streamedMs: number;
  /** Worker process CPU ms per 1,000 tokens (the whole run: claim, steps, tokens). */
  workerCpuPer1k: number;
  load1: [number, number];
}

async function pgStats(url: string, name: string): Promise<{ rows: number; xact: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query("SELECT pg_stat_clear_snapshot()");
    const r = await c.query<{ rows: string; xact: string }>(
      `SELECT (tup_inserted + tup_updated + tup_deleted)::text AS rows, xact_commit::text AS xact FROM pg_stat_database WHERE datname = $1`,
      [name],
    );
    return { rows: Number(r.rows[0]?.rows ?? 0), xact: Number(r.rows[0]?.xact ?? 0) };
  } finally {
    await c.end();
  }
}

type Sample = [number, number, number, number]; // run index, token index, got, painted (epoch ms)

async function runArm(
  arm: TokenArm,
  ctx: {
    browser: Browser;
    bases: string[];
    workflowIds: string[];
    workspaceId: string;
    stamps: Map<string, number>;
    dropAll: () => number;
    db: { url: string; name: string };
    prefix: string;
    modelPort: number;
  },
): Promise<TokenArmResult> {
  const { spawnWorker, stopWorker } = await import("@/test/helpers/worker");
  const { startRun } = await import("@/lib/runs/service");
  const { db } = await import("@/lib/db/client");
  ctx.stamps.clear();
  const load0 = os.loadavg()[0]!;
  const worker = spawnWorker({
    databaseUrl: ctx.db.url,
    prefix: ctx.prefix,
    modelPort: ctx.modelPort,
    ...(arm === "naive" ? { entry: "bench/live/naive-worker.ts" } : {}),
    // e.g. "--cpu-prof --cpu-prof-dir=/tmp/b2b": where the worker's CPU per token goes
    ...(process.env.B2B_WORKER_NODE_ARGS ? { nodeArgs: process.env.B2B_WORKER_NODE_ARGS.split(" ") } : {}),
    env: {
      WEFT_WORKER_CONCURRENCY: String(Math.max(20, RUNS)),
      WEFT_RECONCILE_INTERVAL_MS: "60000",
      WEFT_DB_POOL_MAX: "10",
    },
  });
  await worker.ready;
  const pgBefore = await pgStats(ctx.db.url, ctx.db.name);
  const cpu0 = cpuMsOf(worker.child.pid!);
  const runIds = await Promise.all(ctx.workflowIds.map(async (id) => (await startRun(ctx.workspaceId, id)).run.id));
  const { runEventHub } = await import("@/lib/events/hub");
  const atHub = new Map<string, number>();
  const offs =
    arm !== "product"
      ? []
      : await Promise.all(
          runIds.map((runId, run) => {
            let next = 0;
            return runEventHub().subscribeLive(runId, (f) => {
              if (!f || f.nodeId !== "write") return;
              const t = performance.timeOrigin + performance.now();
              for (const end = Math.floor((f.at + f.text.length) / WIDTH); next < end; next++)
                atHub.set(token(run, next), t);
            });
          }),
        );
  const context = await ctx.browser.newContext();
  let page: Page | undefined;
  let dropAt = Infinity;
  try {
    page = await context.newPage();
    await page.goto(`${ctx.bases[0]}/tokens`, { timeout: 120_000 });
    await page.evaluate(
      ([a, b, ids, w, n]) =>
        (
          window as unknown as { watchText: (a: string, b: string[], i: string[], w: number, n: number) => void }
        ).watchText(a, b, ids, w, w * n),
      [arm, ctx.bases, runIds, WIDTH, TOKENS] as const,
    );
    const total = RUNS * TOKENS;
    const deadline = Date.now() + FIRST_CHUNK_DELAY_MS + (TOKENS / RATE) * 1000 * 3 + 60_000;
    for (;;) {
      if (dropAt === Infinity && ctx.stamps.size >= total / 2) {
        dropAt = performance.timeOrigin + performance.now();
        ctx.dropAll();
      }
      const done = await page.evaluate(() => Object.keys((window as unknown as { done: object }).done).length);
      if (done >= RUNS || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const cpu = cpuMsOf(worker.child.pid!) - cpu0;
    const seen = await page.evaluate(() => {
      const w = window as unknown as {
        samples: Sample[];
        texts: Record<string, string>;
        opens: Record<string, number[]>;
        overlap: number;
        gaps: number;
        stop: () => void;
      };
      w.stop();
      return { samples: w.samples, texts: w.texts, opens: w.opens, overlap: w.overlap, gaps: w.gaps };
    });
    await stopWorker(worker);
    await new Promise((r) => setTimeout(r, 500));
    const pgAfter = await pgStats(ctx.db.url, ctx.db.name);
    const runEventRows = await db().runEvent.count({ where: { runId: { in: runIds } } });
    for (const off of offs) off();
    const msg: number[] = [],
      paint: number[] = [],
      away: number[] = [],
      hub: number[] = [];
    for (const [run, i, got, painted] of seen.samples) {
      const chunk = ctx.stamps.get(token(run, i));
      if (chunk === undefined) continue;
      // away: written after the drop and before this viewer's stream reopened
      const reopened = seen.opens[runIds[run]!]?.find((t) => t > dropAt) ?? Infinity;
      if (chunk >= dropAt && chunk <= reopened) away.push(painted - chunk);
      else {
        const h = atHub.get(token(run, i));
        if (h !== undefined) hub.push(h - chunk);
        msg.push(got - chunk);
        paint.push(painted - chunk);
      }
    }
    const chunkTimes = [...ctx.stamps.values()];
    const firstChunk = Math.min(...chunkTimes);
    const deliveredMs = Math.max(...seen.samples.map((x) => x[3])) - firstChunk;
    const streamedMs = Math.max(...chunkTimes) - firstChunk;
    let lostChars = 0,
      dupChars = 0;
    runIds.forEach((runId, run) => {
      const want = fullText(run);
      const got = seen.texts[runId] ?? "";
      const counts = new Map<string, number>();
      for (let k = 0; k < got.length; k += WIDTH)
        counts.set(got.slice(k, k + WIDTH), (counts.get(got.slice(k, k + WIDTH)) ?? 0) + 1);
      for (let k = 0; k < want.length; k += WIDTH) {
        const t = want.slice(k, k + WIDTH);
        const n = counts.get(t) ?? 0;
        if (n === 0) lostChars += t.length;
        if (n > 1) dupChars += (n - 1) * t.length;
      }
      if (got !== want && lostChars === 0 && dupChars === 0) dupChars += Math.abs(got.length - want.length) || 1; // reordered or foreign text
    });
    const rowsWritten = pgAfter.rows - pgBefore.rows;
    return {
      arm,
      runs: RUNS,
      tokens: total,
      msgP50: median(msg),
      msgP95: p95(msg),
      paintP50: median(paint),
      paintP95: p95(paint),
      hubP50: hub.length ? median(hub) : NaN,
      hubP95: hub.length ? p95(hub) : NaN,
      whileAway: away.length,
      whileAwayPaintP95: away.length ? p95(away) : 0,
      lostChars,
      dupChars,
      overlapChars: seen.overlap,
      gapFrames: seen.gaps,
      pg: {
        rowsWritten,
        xactCommit: pgAfter.xact - pgBefore.xact,
        runEventRows,
        workerStatements: workerStoreStats(worker.logs)?.sqlStatements ?? null,
        rowsWrittenPerToken: rowsWritten / total,
      },
      deliveredMs,
      streamedMs,
      workerCpuPer1k: (cpu / total) * 1000,
      load1: [load0, os.loadavg()[0]!],
    };
  } finally {
    await context.close();
    await stopWorker(worker);
  }
}

export interface TokenResult {
  bench: string;
  at: string;
  machine: Record<string, unknown>;
  plan: { runs: number; tokens: number; rate: number };
  arms: TokenArmResult[];
}

/** `B2_PART=tokens npm run bench -- live`: both arms once, stored under `tokens` in bench/results/live-b2.json (full size only). */
export async function runTokens(): Promise<{ summary: string; ok: boolean }> {
  const { database, prefix } = await benchEnvironment();
  const { resetEnvCache } = await import("@/lib/env");
  resetEnvCache();
  const { startScriptedServer } = await import("@/lib/llm/scripted/server");
  const { startHarnessServer } = await import("./server");
  const { createTestUser, createTestWorkflow } = await import("@/test/fixtures");
  const { env } = await import("@/lib/env");
  const stamps = new Map<string, number>();
  const model = await startScriptedServer({
    fixtures: [{ rules: rules() }],
    onChunk: (text) => void stamps.set(text, performance.timeOrigin + performance.now()),
  });
  const server = await startHarnessServer(prefix, env().REDIS_URL);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  const arms: TokenArmResult[] = [];
  try {
    const owner = await createTestUser();
    const workflowIds = await Promise.all(
      Array.from({ length: RUNS }, async (_, run) => (await createTestWorkflow(owner.id, writer(run))).workflowId),
    );
    for (const arm of ARMS.filter((a) => ONLY_ARMS.includes(a))) {
      arms.push(
        await runArm(arm, {
          browser,
          bases: server.bases,
          workflowIds,
          workspaceId: owner.id,
          stamps,
          dropAll: () => server.dropAll(),
          db: database,
          prefix,
          modelPort: model.port,
        }),
      );
    }
  } finally {
    await browser.close();
    await server.close();
    await model.close();
    const { closeRunEventHub } = await import("@/lib/events/hub");
    const { closeApiRedis, closeRunsQueue } = await import("@/lib/queue");
    const { db } = await import("@/lib/db/client");
    const { dropTestDatabase } = await import("@/test/db");
    await closeRunEventHub();
    await closeRunsQueue();
    await closeApiRedis();
    await db().$disconnect();
    await dropTestDatabase(database.name);
  }
  const full = RUNS === 20 && TOKENS === 1_500 && arms.length === ARMS.length;
  if (full) {
    const stored = (await readResult<Record<string, unknown>>("live-b2.json")) ?? {};
    const tokens: TokenResult = {
      bench: "B2b token streaming",
      at: new Date().toISOString(),
      machine: await machine(),
      plan: { runs: RUNS, tokens: TOKENS, rate: RATE },
      arms,
    };
    await writeResult("live-b2.json", { ...stored, tokens });
  }
  const product = arms.find((a) => a.arm === "product");
  const line = (a: TokenArmResult) =>
    `${a.arm}: chunk→hub p50/p95 ${a.hubP50.toFixed(1)}/${a.hubP95.toFixed(1)} ms, chunk→msg p50/p95 ${a.msgP50.toFixed(1)}/ ${a.msgP95.toFixed(1)} ms, →paint p50/p95 ${a.paintP50.toFixed(1)}/${a.paintP95.toFixed(1)} ms; while away ${a.whileAway} tokens (paint p95 ${a.whileAwayPaintP95.toFixed(0)} ms); lost ${a.lostChars} dup ${a.dupChars} chars (overlap ${a.overlapChars}, gaps ${a.gapFrames}); last token painted ${(a.deliveredMs / 1000).toFixed(1)} s after the first chunk (model streamed ${(a.streamedMs / 1000).toFixed(1)} s); PostgreSQL rows written ${a.pg.rowsWritten} (${a.pg.rowsWrittenPerToken.toFixed(3)}/token), commits ${a.pg.xactCommit}, RunEvent rows ${a.pg.runEventRows}, worker statements ${a.pg.workerStatements ?? "?"}; worker CPU ${a.workerCpuPer1k.toFixed(0)} ms/1k tokens (load ${a.load1.map((l) => l.toFixed(1)).join("→")})`;
  // "no write per token": the product's rows are the runs' own (claim, step start and end, run end,
  // lease renewals), a few dozen per run whatever it streams; one per token would be ≥ 1 per token
  const ok =
    !product ||
    (product.paintP95 < 50 &&
      product.lostChars === 0 &&
      product.dupChars === 0 &&
      product.pg.rowsWrittenPerToken < 0.05);
  return { summary: `${arms.map(line).join(" | ")}${full ? "" : " (shortened: not stored)"}`, ok };
}
