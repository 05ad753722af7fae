/**
 * B2 live status latency: this product's path (event log in PostgreSQL + Redis wake-up carrying the
 * committed events → SSE → browser) vs a Flowise-style pub/sub relay (Redis PUBLISH → SUBSCRIBE →
 * SSE) vs 1 s polling. A writer process (bench/live/producer.ts, like the worker in production)
 * stamps each event when created and when handed over (committed; for the relay, handed to PUBLISH);
 * headless /usr/bin/chromium records onmessage and the next animation frame. Delays are measured
 * from the hand-over (the goal's "commit → onmessage"); `createdP95` adds the commit itself.
 * Loads: events/s × concurrent runs, plus a connection drop mid-run (every SSE connection destroyed
 * once) counting lost and duplicated events per arm. Arms interleave (A B C, B C A, …) over `reps`.
 * Full run → bench/results/live-b2.json; smoke (a warm-up, then 3 interleaved 2 s repetitions at 50/s × 5
 * runs) fails on a lost or duplicated event, or on a ≥ 2× regression of the product's p95 (best
 * repetition) relative to this run's relay, against the same ratio in the stored goal case, that also
 * puts it ≥ 40 ms behind the relay.
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { machine, p95, median, readResult, writeResult } from "../stats";
import { ensureTemplate, urlFor, withAdmin } from "../../test/pg-admin";
import type { Arm, ProduceOrder, ProducerReply, Stamp } from "./protocol";
import type { HarnessServer, Records } from "./server";

const ARMS: Arm[] = ["product", "relay", "poll"];

interface Case {
  name: string;
  rate: number;
  runs: number;
  seconds: number;
  drop: boolean;
}
interface ArmResult {
  arm: Arm;
  reps: number;
  sent: number;
  received: number;
  lost: number;
  duplicated: number;
  /** hand-over (commit / PUBLISH) → onmessage, and → next animation frame (ms). */
  msgP50: number;
  msgP95: number;
  paintP50: number;
  paintP95: number;
  /** creation (before the commit) → onmessage (ms): what the commit adds. */
  createdP95: number;
  /**
   * Where the time goes (p95, ms): hand-over → PUBLISH acknowledged in the writer (`publishedP95`;
   * NaN for poll), → the server's hub delivered the decoded wake-up (`hubP95`, product only), →
   * frame written to the socket (`serverP95`), and written → onmessage (`browserP95`).
   */
  publishedP95: number;
  hubP95: number;
  serverP95: number;
  browserP95: number;
  /** p95 of each repetition (msg), for the pair-by-pair ratio. */
  repMsgP95: number[];
  /**
   * CPU ms per 1,000 events while the writer produced (mean over repetitions): the writer process,
   * and the harness process (SSE server, hub, Playwright client; excludes PostgreSQL, Redis, Chromium).
   */
  cpuPer1k: { writer: number; server: number };
  /** Share of the machine's CPU time (all cores, every process, other users' too) busy while the writer produced (mean over repetitions). */
  machineBusy: number;
}
/** `load1`: the machine's 1-minute load average before and after the case (this host is shared; read figures with it). */
interface CaseResult {
  case: Case;
  arms: ArmResult[];
  ratioP95VsRelay: number;
  ratioP95VsPoll: number;
  load1: [number, number];
}

const FULL: Case[] = [
  { name: "1/s × 1 run", rate: 1, runs: 1, seconds: 5, drop: false },
  { name: "50/s × 1 run", rate: 50, runs: 1, seconds: 4, drop: false },
  { name: "50/s × 20 runs", rate: 50, runs: 20, seconds: 4, drop: false },
  { name: "500/s × 1 run", rate: 500, runs: 1, seconds: 3, drop: false },
  { name: "500/s × 20 runs", rate: 500, runs: 20, seconds: 2, drop: false },
  { name: "50/s × 20 runs, dropped mid-run", rate: 50, runs: 20, seconds: 6, drop: true },
];
/**
 * The smoke's load: 250 events/s, which every machine of this kind sustains. At the goal's 1,000
 * durable commits/s a slower host saturates both cores in the product arm only (the relay commits
 * nothing), and its p95 then measures the queue, not the code (bench/history.md). The goal case is
 * measured by the full run.
 */
const SMOKE: Case[] = [{ name: "50/s × 5 runs", rate: 50, runs: 5, seconds: 2, drop: false }];
/**
 * Run once per arm before anything is measured, results discarded: the first seconds of each path pay
 * for cold code (JIT, Prisma's engine, first connections, Chromium's first frames), which the smoke's
 * only case would otherwise measure as its p95.
 */
const WARMUP: Case = { name: "warm-up", rate: 50, runs: 20, seconds: 1, drop: false };
/**
 * One browser for every arm. Headless Chromium must not throttle the page's timers or animation
 * frames (the paint stamp is taken in requestAnimationFrame): Playwright passes these three by
 * default today; they are spelled out so the measurement does not depend on its defaults.
 */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-timer-throttling",
  "--disable-renderer-backgrounding",
  "--disable-backgrounding-occluded-windows",
];
/**
 * Interleaved repetitions in the smoke: its regression check uses each arm's best repetition, since a
 * real regression slows every repetition while one burst of load on this shared host slows one.
 */
const SMOKE_REPS = 3;
/** Interleaved repetitions per case in a full run (B2_REPS overrides). */
const FULL_REPS = Number(process.env.B2_REPS ?? 5);
/** B2_CASE=<name> runs only that case of the full run, for investigation: nothing is written to bench/results. */
const ONLY = process.env.B2_CASE;
const fullCases = (): Case[] => {
  const cases = FULL.filter((c) => !ONLY || c.name === ONLY);
  if (!cases.length)
    throw new Error(`B2_CASE: no case named ${JSON.stringify(ONLY)} (${FULL.map((c) => c.name).join(", ")})`);
  return cases;
};

async function setupDatabase(): Promise<{ name: string; drop: () => Promise<void> }> {
  const template = await ensureTemplate();
  const name = `weft_b2_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await withAdmin((a) => a.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  process.env.DATABASE_URL = urlFor(name);
  return {
    name,
    drop: () => withAdmin((a) => a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** The writer process: one order at a time; `onHalf` fires half way through (the drop case). */
class Producer {
  private waiting: ((m: ProducerReply) => void) | undefined;
  onHalf: () => void = () => undefined;
  private constructor(private readonly child: ChildProcess) {
    child.on("message", (m: ProducerReply) => (m.type === "half" ? this.onHalf() : this.waiting?.(m)));
  }

  static async start(): Promise<Producer> {
    const child = fork(path.join(import.meta.dirname, "producer.ts"), [], {
      execArgv: ["--import", "tsx", "--conditions=react-server"],
      env: process.env,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const producer = new Producer(child);
    const first = await producer.next();
    if (first.type !== "ready") throw new Error(`producer did not start: ${JSON.stringify(first)}`);
    return producer;
  }

  private next(): Promise<ProducerReply> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`producer exited (${code})`));
      this.child.once("exit", onExit);
      this.waiting = (m) => {
        this.child.off("exit", onExit);
        this.waiting = undefined;
        resolve(m);
      };
    });
  }

  async produce(order: Omit<ProduceOrder, "type">): Promise<{ total: number; stamps: Stamp[]; cpuMs: number }> {
    const reply = this.next();
    this.child.send({ type: "produce", ...order });
    const m = await reply;
    if (m.type !== "done") throw new Error(`producer failed: ${JSON.stringify(m)}`);
    return m;
  }

  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once("exit", r));
    this.child.send({ type: "exit" });
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    this.child.kill();
  }
}

type Sample = [string, number, number, number]; // runId, seq, onmessage, painted (epoch ms)
/** `cpu`: CPU ms spent while the writer produced, by the writer process and by this (server + Playwright) process. */
interface Raw extends Records {
  expected: Stamp[];
  samples: Sample[];
  cpu: { writer: number; server: number; busy: number };
}

/** Idle and total CPU ms of the whole machine so far (all cores). */
const machineTimes = (): { idle: number; total: number } => {
  let idle = 0,
    total = 0;
  for (const c of os.cpus()) {
    idle += c.times.idle;
    total += c.times.user + c.times.nice + c.times.sys + c.times.idle + c.times.irq;
  }
  return { idle, total };
};

/**
 * One arm of one case: one page watches every run of the case, each stream on its own harness port
 * (so Chromium's 6-connections-per-host limit never starves a stream). Waits after the last event
 * until every event arrived, or a quiet period (poll: one more tick; dropped: EventSource's 2 s
 * retry) passed.
 */
async function runArm(
  browser: Browser,
  server: HarnessServer,
  arm: Arm,
  c: Case,
  prefix: string,
  workspaceId: string,
  producer: Producer,
): Promise<Raw> {
  const bases = server.bases;
  const { createTestRun } = await import("@/test/fixtures");
  const runIds = await Promise.all(Array.from({ length: c.runs }, () => createTestRun(workspaceId, "running")));
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${bases[0]}/page`, { timeout: 120_000 });
    const target = server.ready() + (arm === "poll" ? 0 : c.runs);
    await page.evaluate(
      ([a, b, ids]) => (window as unknown as { watch: (a: string, b: string[], i: string[]) => void }).watch(a, b, ids),
      [arm, bases, runIds] as const,
    );
    // every viewer connected (a relay subscription not yet acknowledged would lose events unfairly)
    for (const end = Date.now() + 60_000; server.ready() < target && Date.now() < end;) await page.waitForTimeout(50);
    await page.waitForTimeout(arm === "poll" ? 1_200 : 300);
    producer.onHalf = () => void (c.drop && server.dropAll());
    server.takeRecords();
    const serverCpu = process.cpuUsage();
    const machineBefore = machineTimes();
    const { stamps, cpuMs } = await producer.produce({ arm, runIds, rate: c.rate, seconds: c.seconds, prefix });
    const used = process.cpuUsage(serverCpu);
    const machineAfter = machineTimes();
    const busy = 1 - (machineAfter.idle - machineBefore.idle) / Math.max(1, machineAfter.total - machineBefore.total);
    const cpu = { writer: cpuMs, server: (used.user + used.system) / 1000, busy };
    const count = () => page.evaluate(() => (window as unknown as { samples: unknown[] }).samples.length);
    const quiet = arm === "poll" ? 2_500 : c.drop ? 4_000 : 1_500;
    for (let last = -1, since = Date.now(); ;) {
      const n = await count();
      if (n >= stamps.length) break;
      if (n !== last) [last, since] = [n, Date.now()];
      else if (Date.now() - since > quiet) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const samples = await page.evaluate(() => {
      const w = window as unknown as { samples: Sample[]; stop: () => void };
      w.stop();
      return w.samples;
    });
    return { expected: stamps, samples, cpu, ...server.takeRecords(true) };
  } finally {
    await context.close();
  }
}

function summarise(arm: Arm, raws: Raw[]): ArmResult {
  const msg: number[] = [],
    paint: number[] = [],
    created: number[] = [],
    repMsgP95: number[] = [],
    atServer: number[] = [],
    toBrowser: number[] = [];
  const published: number[] = [],
    atHub: number[] = [];
  let sent = 0,
    received = 0,
    lost = 0,
    duplicated = 0,
    writerCpu = 0,
    serverCpu = 0,
    busy = 0;
  for (const raw of raws) {
    const byKey = new Map(raw.expected.map((s) => [`${s[0]}:${s[1]}`, s]));
    const seen = new Set<string>();
    const repMsg: number[] = [];
    for (const [runId, seq, got, painted] of raw.samples) {
      const key = `${runId}:${seq}`;
      const stamp = byKey.get(key);
      if (seen.has(key)) duplicated++;
      seen.add(key);
      if (!stamp) continue;
      repMsg.push(got - stamp[3]);
      const written = raw.writes.get(key);
      if (written !== undefined) atServer.push(written - stamp[3]);
      if (written !== undefined) toBrowser.push(got - written);
      const hub = raw.hub.get(key);
      if (hub !== undefined) atHub.push(hub - stamp[3]);
      if (stamp[4] !== null) published.push(stamp[4] - stamp[3]);
      paint.push(painted - stamp[3]);
      created.push(got - stamp[2]);
    }
    msg.push(...repMsg);
    repMsgP95.push(p95(repMsg));
    sent += raw.expected.length;
    writerCpu += raw.cpu.writer;
    serverCpu += raw.cpu.server;
    busy += raw.cpu.busy / raws.length;
    received += raw.samples.length;
    lost += [...byKey.keys()].filter((k) => !seen.has(k)).length;
  }
  return {
    arm,
    reps: raws.length,
    sent,
    received,
    lost,
    duplicated,
    msgP50: median(msg),
    msgP95: p95(msg),
    paintP50: median(paint),
    paintP95: p95(paint),
    createdP95: p95(created),
    publishedP95: p95(published),
    hubP95: p95(atHub),
    serverP95: p95(atServer),
    browserP95: p95(toBrowser),
    repMsgP95,
    cpuPer1k: { writer: (writerCpu / Math.max(1, sent)) * 1000, server: (serverCpu / Math.max(1, sent)) * 1000 },
    machineBusy: busy,
  };
}

/** Median over repetitions of ours/peer p95 (pair by pair, docs/benchmarks.md). */
function ratio(ours: ArmResult, peer: ArmResult): number {
  return median(ours.repMsgP95.map((v, i) => v / peer.repMsgP95[i]!));
}

/** `npm run bench -- live [--smoke]` (B2_REPS=n sets the full run's repetitions, default 5); `B2_PART=tokens` runs B2b instead. */
export async function run({ smoke }: { smoke: boolean }): Promise<{ summary: string; ok: boolean }> {
  // B2b (token streaming) has a harness of its own: bench/live/tokens.ts
  if (!smoke && process.env.B2_PART === "tokens") return (await import("./tokens")).runTokens();
  const database = await setupDatabase();
  const prefix = `b2-${randomBytes(4).toString("hex")}`;
  process.env.WEFT_QUEUE_PREFIX = prefix;
  // A bench process needs no real secrets (no sessions, no provider keys): throwaway ones if unset.
  process.env.AUTH_SECRET ??= randomBytes(32).toString("base64");
  process.env.WEFT_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  const { resetEnvCache, env } = await import("@/lib/env");
  resetEnvCache();
  const { startHarnessServer } = await import("./server");
  const { createTestUser } = await import("@/test/fixtures");
  const server = await startHarnessServer(prefix, env().REDIS_URL);
  const producer = await Producer.start();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  const results: CaseResult[] = [];
  const reps = smoke ? SMOKE_REPS : FULL_REPS;
  try {
    const owner = await createTestUser();
    for (const arm of ARMS) await runArm(browser, server, arm, WARMUP, prefix, owner.id, producer);
    for (const c of smoke ? SMOKE : fullCases()) {
      const raws = new Map<Arm, Raw[]>(ARMS.map((a) => [a, []]));
      const loadBefore = os.loadavg()[0]!;
      for (let rep = 0; rep < reps; rep++) {
        for (let k = 0; k < ARMS.length; k++) {
          const arm = ARMS[(rep + k) % ARMS.length]!;
          raws.get(arm)!.push(await runArm(browser, server, arm, c, prefix, owner.id, producer));
        }
      }
      const arms = ARMS.map((a) => summarise(a, raws.get(a)!));
      const [ours, relay, poll] = arms as [ArmResult, ArmResult, ArmResult];
      results.push({
        case: c,
        arms,
        ratioP95VsRelay: ratio(ours, relay),
        ratioP95VsPoll: ratio(ours, poll),
        load1: [loadBefore, os.loadavg()[0]!],
      });
    }
  } finally {
    await browser.close();
    await producer.close();
    await server.close();
    const { closeRunEventHub } = await import("@/lib/events/hub");
    const { closeApiRedis } = await import("@/lib/queue");
    const { db } = await import("@/lib/db/client");
    await closeRunEventHub();
    await closeApiRedis();
    await db().$disconnect();
    await database.drop();
  }
  return report(results, smoke, reps);
}

async function report(results: CaseResult[], smoke: boolean, reps: number): Promise<{ summary: string; ok: boolean }> {
  const stored = await readResult<{ results: CaseResult[]; tokens?: unknown }>("live-b2.json");
  const line = (r: CaseResult) =>
    `${r.case.name}: ${r.arms.map((a) => `${a.arm} p95 ${a.msgP95.toFixed(1)}/${a.paintP95.toFixed(1)} ms (published ${a.publishedP95.toFixed(1)}, hub ${a.hubP95.toFixed(1)}, server ${a.serverP95.toFixed(1)}, browser ${a.browserP95.toFixed(1)}; cpu/1k writer ${a.cpuPer1k.writer.toFixed(0)} server ${a.cpuPer1k.server.toFixed(0)} ms, machine ${(a.machineBusy * 100).toFixed(0)}% busy) lost ${a.lost} dup ${a.duplicated}`).join("; ")}; ours/relay ${r.ratioP95VsRelay.toFixed(2)} (load ${r.load1.map((l) => l.toFixed(0)).join("→")})`;
  if (smoke) {
    const mine = results[0]!.arms.find((a) => a.arm === "product")!;
    const relay = results[0]!.arms.find((a) => a.arm === "relay")!;
    // The regression check is a ratio to the relay of this run (it shares the machine's speed and
    // momentary load) against the same ratio in the stored goal case: fails when it doubled AND the
    // product is ≥ 40 ms behind the relay (a slow day's normal gap stays well under that; what it
    // must catch is the live path falling back to polling or heartbeats, hundreds of ms and more).
    const goal = stored?.results.find((r) => r.case.name === "50/s × 20 runs")?.arms;
    const storedRatio = goal
      ? goal.find((a) => a.arm === "product")!.msgP95 / goal.find((a) => a.arm === "relay")!.msgP95
      : 1;
    const best = (a: ArmResult) => Math.min(...a.repMsgP95);
    const ratio = best(mine) / best(relay);
    const slower = ratio >= 2 * storedRatio && best(mine) >= best(relay) + 40;
    const ok = mine.lost === 0 && mine.duplicated === 0 && !slower;
    return {
      summary: `${line(results[0]!)} | best repetition: product ${best(mine).toFixed(1)} ms, relay ${best(relay).toFixed(1)} ms, ratio ${ratio.toFixed(2)} (stored ${storedRatio.toFixed(2)})`,
      ok,
    };
  }
  // B2b's result (`tokens`, bench/live/tokens.ts) is kept as it is
  if (!ONLY)
    await writeResult("live-b2.json", {
      bench: "B2 live status latency",
      machine: await machine(),
      at: new Date().toISOString(),
      reps,
      results,
      ...(stored?.tokens ? { tokens: stored.tokens } : {}),
    });
  const target = results.find((r) => r.case.name === "50/s × 20 runs")?.arms.find((a) => a.arm === "product");
  const ok = results.every((r) => r.arms.find((a) => a.arm === "product")!.lost === 0);
  return {
    summary: `${results.map(line).join(" | ")} (goal at 50/s × 20: p95 < 10 ms msg, < 30 ms paint; product ${target?.msgP95.toFixed(1)}/${target?.paintP95.toFixed(1)})`,
    ok,
  };
}
