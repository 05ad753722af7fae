/**
 * B2 live status latency: this product's path (event log in PostgreSQL + Redis wake-up → SSE →
 * browser) vs a Flowise-style pub/sub relay (Redis PUBLISH → SUBSCRIBE → SSE) vs 1 s polling.
 * The writer stamps each event with its wall clock (`t`); headless /usr/bin/chromium records
 * onmessage and the next animation frame. Loads: events/s × concurrent runs, plus a connection
 * drop mid-run (every SSE connection destroyed once) counting lost and duplicated events per arm.
 * Full run → bench/results/live-b2.json; smoke (seconds) fails only on a ≥ 2× regression of p95.
 */
import { randomBytes } from "node:crypto";
import { chromium, type Browser } from "@playwright/test";
import { machine, p95, median, readResult, writeResult } from "../stats";
import { ensureTemplate, urlFor, withAdmin } from "../../test/pg-admin";

type Arm = "product" | "relay" | "poll";
const ARMS: Arm[] = ["product", "relay", "poll"];

interface Case { name: string; rate: number; runs: number; seconds: number; drop: boolean }
interface ArmResult { arm: Arm; sent: number; received: number; lost: number; duplicated: number; msgP50: number; msgP95: number; paintP95: number }
interface CaseResult { case: Case; arms: ArmResult[] }

const FULL: Case[] = [
  { name: "1/s × 1 run", rate: 1, runs: 1, seconds: 5, drop: false },
  { name: "50/s × 1 run", rate: 50, runs: 1, seconds: 4, drop: false },
  { name: "50/s × 20 runs", rate: 50, runs: 20, seconds: 4, drop: false },
  { name: "500/s × 1 run", rate: 500, runs: 1, seconds: 3, drop: false },
  { name: "500/s × 20 runs", rate: 500, runs: 20, seconds: 2, drop: false },
  { name: "50/s × 20 runs, dropped mid-run", rate: 50, runs: 20, seconds: 6, drop: true },
];
const SMOKE: Case[] = [{ name: "50/s × 20 runs", rate: 50, runs: 20, seconds: 2, drop: false }];

async function setupDatabase(): Promise<{ name: string; drop: () => Promise<void> }> {
  const template = await ensureTemplate();
  const name = `weft_b2_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await withAdmin((a) => a.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  process.env.DATABASE_URL = urlFor(name);
  return { name, drop: () => withAdmin((a) => a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined) };
}

const stamp = () => performance.timeOrigin + performance.now();

/** Writes `rate` events/s to each run for `seconds` the way each arm's producer would; returns events sent per run. */
async function produce(arm: Arm, runIds: string[], c: Case, prefix: string, onHalf: () => void): Promise<number> {
  const { db } = await import("@/lib/db/client");
  const { appendEvents } = await import("@/lib/events/store");
  const { publishRunWake } = await import("@/lib/events/publish");
  const { apiRedis } = await import("@/lib/queue");
  const { relayChannel } = await import("./server");
  const total = Math.max(1, Math.round(c.rate * c.seconds));
  const interval = 1000 / c.rate;
  const t0 = stamp();
  const one = async (runId: string, i: number) => {
    const detail = { t: stamp() };
    if (arm === "relay") return void (await apiRedis().publish(relayChannel(prefix, runId), JSON.stringify({ seq: i + 1, t: detail.t })));
    const stored = await db().$transaction((tx) => appendEvents(tx, runId, [{ type: "step_progress", nodeId: "n", iteration: 1, message: "tick", detail }]));
    if (arm === "product") await publishRunWake(runId, stored.at(-1)!.seq);
  };
  for (let i = 0; i < total; i++) {
    const due = t0 + i * interval - stamp();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
    if (i === Math.floor(total / 2)) onHalf();
    await Promise.all(runIds.map((id) => one(id, i)));
  }
  return total;
}

type Sample = { msg: number; paint: number };

/**
 * One arm of one case. Each run is watched by its own browser context (a viewer per run, as in the
 * product: one stream per page), so Chromium's 6-connections-per-host limit never starves a stream.
 */
async function runArm(browser: Browser, base: string, arm: Arm, c: Case, prefix: string, ownerId: string, drop: () => number): Promise<ArmResult> {
  const { createTestRun } = await import("@/lib/runs/test-fixtures");
  const runIds = await Promise.all(Array.from({ length: c.runs }, () => createTestRun(ownerId, "running")));
  const contexts = await Promise.all(runIds.map(() => browser.newContext()));
  try {
    const pages = await Promise.all(contexts.map((ctx) => ctx.newPage()));
    await Promise.all(pages.map(async (page, i) => {
      await page.goto(`${base}/page`);
      await page.evaluate(([a, b, id]) => (window as unknown as { watch: (a: string, b: string, i: string[]) => void }).watch(a, b, [id]), [arm, base, runIds[i]!] as const);
    }));
    await pages[0]!.waitForTimeout(arm === "poll" ? 1_200 : 300);
    const sent = await produce(arm, runIds, c, prefix, () => c.drop && drop());
    await pages[0]!.waitForTimeout(arm === "poll" ? 2_500 : c.drop ? 3_000 : 800);
    const all = await Promise.all(pages.map((page) => page.evaluate(() => {
      const w = window as unknown as { samples: Sample[]; seen: string[]; stop: () => void };
      w.stop();
      return { samples: w.samples, seen: w.seen };
    })));
    const samples = all.flatMap((a) => a.samples);
    const seen = all.flatMap((a) => a.seen);
    const unique = new Set(seen).size;
    const expected = sent * c.runs;
    return {
      arm, sent: expected, received: seen.length, lost: expected - unique, duplicated: seen.length - unique,
      msgP50: median(samples.map((s) => s.msg)), msgP95: p95(samples.map((s) => s.msg)), paintP95: p95(samples.map((s) => s.paint)),
    };
  } finally {
    await Promise.all(contexts.map((ctx) => ctx.close()));
  }
}

/** `npm run bench -- live [--smoke]`. */
export async function run({ smoke }: { smoke: boolean }): Promise<{ summary: string; ok: boolean }> {
  const database = await setupDatabase();
  const prefix = `b2-${randomBytes(4).toString("hex")}`;
  process.env.WEFT_QUEUE_PREFIX = prefix;
  // A bench process needs no real secrets (no sessions, no provider keys): throwaway ones if unset.
  process.env.AUTH_SECRET ??= randomBytes(32).toString("base64");
  process.env.WEFT_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  const { resetEnvCache, env } = await import("@/lib/env");
  resetEnvCache();
  const { startHarnessServer } = await import("./server");
  const { createTestUser } = await import("@/lib/runs/test-fixtures");
  const server = await startHarnessServer(prefix, env().REDIS_URL);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  const results: CaseResult[] = [];
  try {
    const owner = await createTestUser();
    for (const c of smoke ? SMOKE : FULL) {
      const arms: ArmResult[] = [];
      for (const arm of ARMS) arms.push(await runArm(browser, server.url, arm, c, prefix, owner.id, () => server.dropAll()));
      results.push({ case: c, arms });
    }
  } finally {
    await browser.close();
    await server.close();
    const { closeRunEventHub } = await import("@/lib/events/hub");
    const { closeApiRedis } = await import("@/lib/queue");
    const { db } = await import("@/lib/db/client");
    await closeRunEventHub();
    await closeApiRedis();
    await db().$disconnect();
    await database.drop();
  }
  return report(results, smoke);
}

async function report(results: CaseResult[], smoke: boolean): Promise<{ summary: string; ok: boolean }> {
  const line = (r: CaseResult) => `${r.case.name}: ${r.arms.map((a) => `${a.arm} p95 ${a.msgP95.toFixed(1)}/${a.paintP95.toFixed(1)} ms lost ${a.lost} dup ${a.duplicated}`).join("; ")}`;
  const stored = await readResult<{ results: CaseResult[] }>("live-b2.json");
  if (smoke) {
    const ref = stored?.results.find((r) => r.case.name === results[0]!.case.name)?.arms.find((a) => a.arm === "product");
    const mine = results[0]!.arms.find((a) => a.arm === "product")!;
    const ok = !ref || (mine.msgP95 < Math.max(2 * ref.msgP95, 10) && mine.lost === 0 && mine.duplicated === 0);
    return { summary: line(results[0]!), ok };
  }
  await writeResult("live-b2.json", { bench: "B2 live status latency", machine: await machine(), at: new Date().toISOString(), results });
  const target = results.find((r) => r.case.name === "50/s × 20 runs")?.arms.find((a) => a.arm === "product");
  const ok = results.every((r) => r.arms.find((a) => a.arm === "product")!.lost === 0);
  return { summary: `${results.map(line).join(" | ")} (goal at 50/s × 20: p95 < 10 ms msg, < 30 ms paint; product ${target?.msgP95.toFixed(1)}/${target?.paintP95.toFixed(1)})`, ok };
}
