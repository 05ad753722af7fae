/** B1 helpers: the wake-up recorder that timestamps our runs' commits, worker store stats, versions, the model server process. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createWorkerConnection, runEventsChannel } from "@/lib/queue";
import { createTestDatabase, testQueuePrefix } from "@/test/db";

/**
 * A fresh test database and queue prefix for an engine bench, with the environment the app's
 * modules read (set before they are imported): secrets, DATABASE_URL, prefix, no run-start limit.
 */
export async function benchEnvironment(options: { experimentSql?: string } = {}) {
  const database = await createTestDatabase();
  if (options.experimentSql) {
    // a diagnostic's experiment (phases.ts, commit-cost.ts B1_SQL): an index or constraint dropped, a storage setting
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(options.experimentSql);
    await client.end();
  }
  const prefix = testQueuePrefix();
  process.env.AUTH_SECRET ??= randomBytes(32).toString("base64");
  process.env.WEFT_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    WEFT_QUEUE_PREFIX: prefix,
    WEFT_RUN_START_LIMIT: "1000000",
    LOG_LEVEL: "warn",
  });
  return { database, prefix };
}

/**
 * Records when this process receives each run's wake-ups (`<prefix>:run-events:<runId>`, carrying
 * the last seq of a commit, published by the worker after the commit; format in lib/events/wake.ts). `at(runId, seq)` answers the
 * receipt time (performance.now()) of the wake-up carrying `seq`, waiting up to 5 s for it.
 */
export async function wakeRecorder(prefix: string) {
  const redis = createWorkerConnection("b1-wakes");
  const seen = new Map<string, number>();
  const ended = new Set<string>();
  const pattern = runEventsChannel("*", prefix);
  const head = pattern.slice(0, -1);
  redis.on("pmessage", (_p: string, channel: string, message: string) => {
    const t = performance.now();
    // lib/events/wake.ts: `{"last":N,…}` (encodeWake writes `last` first) or a bare N. Only N is read,
    // and whether the envelopes hold the run's end: parsing them would spend CPU this stand-in for a
    // viewer does not need, on the cores the measured run uses.
    const last = Number(/^\{"last":(\d+)/.exec(message)?.[1] ?? message);
    const runId = channel.slice(head.length);
    seen.set(`${runId}#${last}`, t);
    if (message.includes('"type":"run_finished"')) ended.add(runId);
  });
  await redis.psubscribe(pattern);
  return {
    /**
     * Waits (10 ms naps, up to `ms`) for a wake-up of `runId` carrying its run_finished event; false
     * when none came (a wake-up too large to carry its events, or none at all). B1 waits for a run's
     * end this way instead of querying the Run row while the run goes: a poll of PostgreSQL every 50 ms
     * took the cores and the database from the run it measured.
     */
    async ended(runId: string, ms: number): Promise<boolean> {
      for (let i = 0; i * 10 < ms && !ended.has(runId); i++) await new Promise((r) => setTimeout(r, 10));
      return ended.has(runId);
    },
    async at(runId: string, seq: number): Promise<number> {
      const key = `${runId}#${seq}`;
      for (let i = 0; i < 500 && !seen.has(key); i++) await new Promise((r) => setTimeout(r, 10));
      const t = seen.get(key);
      if (t === undefined)
        throw new Error(
          `no wake-up for ${key} (have ${[...seen.keys()].filter((k) => k.startsWith(runId)).join(" ") || "none for this run"})`,
        );
      return t;
    },
    close: async () => void (await redis.quit().catch(() => redis.disconnect())),
  };
}

type StoreStats = { sqlStatements: number; cancelPolls: number; transactionalCommits: number; commits: number };

/** The run store's counters a worker logs when it stops ("worker stopped", LOG_LEVEL info). */
export function workerStoreStats(logs: string[]): StoreStats | null {
  for (const line of [...logs].reverse()) {
    if (!line.includes('"worker stopped"')) continue;
    try {
      return (JSON.parse(line) as { store?: StoreStats }).store ?? null;
    } catch {
      return null;
    }
  }
  return null;
}

/** Installed versions of the packages both arms run on. */
export function versions(): Record<string, string> {
  const root = path.resolve(import.meta.dirname, "../..");
  const v = (name: string) => {
    try {
      return (
        JSON.parse(fs.readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")) as {
          version: string;
        }
      ).version;
    } catch {
      return "?";
    }
  };
  const names = [
    "@langchain/langgraph",
    "@langchain/langgraph-checkpoint-postgres",
    "@langchain/openai",
    "bullmq",
    "pg",
    "@prisma/client",
    "ioredis",
  ];
  return { node: process.version, ...Object.fromEntries(names.map((n) => [n, v(n)])) };
}

/**
 * `node --import tsx <args>` in a process of its own, from the repository root; resolves once its
 * stderr matches `ready` (with the match). `close()` stops it (SIGTERM) and waits for it to exit.
 */
async function tsxProcess(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ match: RegExpExecArray; close: () => Promise<void> }> {
  const root = path.resolve(import.meta.dirname, "../..");
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", ...args], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
      const m = ready.exec(err);
      if (m) resolve(m);
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} exited (${code}): ${err.slice(-500)}`)));
  });
  child.stderr?.removeAllListeners("data").resume();
  return {
    match,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * The scripted model server in a process of its own (`lib/llm/scripted/cli.ts`, as `npm run
 * model-server` runs it), serving `rules`: both arms then reach it over the same cross-process
 * HTTP hop, and neither shares its event loop with the server (an in-process server made the
 * LangGraph arm's calls cheaper than the worker's).
 */
export async function modelServerProcess(
  rules: unknown[],
): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "weft-b1-model-"));
  fs.writeFileSync(path.join(dir, "b1.json"), JSON.stringify({ rules }));
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer()
      .listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      })
      .on("error", reject);
  });
  const server = await tsxProcess(
    ["lib/llm/scripted/cli.ts", "--port", String(port), "--fixtures", dir],
    /scripted model server listening/,
    { ...process.env, LOG_LEVEL: "info" },
  );
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * latency-proxy.ts in a process of its own, delaying every answer of each `host:port` target by
 * `delayMs`; answers the local port standing in for each target.
 */
export async function latencyProxyProcess(
  delayMs: number,
  targets: string[],
): Promise<{ ports: Record<string, number>; close: () => Promise<void> }> {
  const proxy = await tsxProcess(
    ["bench/engine/latency-proxy.ts", String(delayMs), ...targets],
    /latency proxy (\{.*\})\n/,
  );
  return { ports: JSON.parse(proxy.match[1]!) as Record<string, number>, close: proxy.close };
}
