import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { db } from "@/lib/db/client";
import { readRunNow } from "@/lib/db/run-log";
import { createWorkerConnection } from "@/lib/queue";
import type { WorkflowInput } from "@/lib/workflow/schema";

/**
 * Test helpers shared by test/scenarios and test/fault: spawn a real worker process (like
 * `npm run worker`), poll the database until a condition holds, wait for a terminal run, and delete
 * one queue prefix's Redis keys (a FLUSHALL limited to this test file's prefix).
 */
export type WorkerProcess = {
  child: ChildProcess;
  ready: Promise<number>;
  exited: Promise<number | null>;
  logs: string[];
  /** When "worker ready" was logged (undefined while starting). */
  readyAt?: number;
};

/**
 * Options for spawnWorker: the database, queue prefix and scripted model port, plus extra env;
 * `entry` is the script to run (default workers/main.ts; B1 runs bench/engine/worker.ts).
 */
export type WorkerOptions = {
  databaseUrl: string;
  prefix: string;
  modelPort?: number;
  env?: Record<string, string>;
  entry?: string;
  nodeArgs?: string[];
};

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Spawns a worker process (workers/main.ts unless `entry` says otherwise; `nodeArgs` go to node, e.g. --cpu-prof) against this test's database, prefix and scripted model server. */
export function spawnWorker(opts: WorkerOptions): WorkerProcess {
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), "--conditions=react-server", "--import", "tsx", opts.entry ?? "workers/main.ts"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: opts.databaseUrl,
        WEFT_QUEUE_PREFIX: opts.prefix,
        ...(opts.modelPort === undefined ? {} : { WEFT_SCRIPTED_MODEL_PORT: String(opts.modelPort) }),
        WEFT_WORKER_HEALTH_PORT: "0",
        WEFT_WORKER_SHUTDOWN_GRACE_MS: "3000",
        WEFT_RECONCILE_INTERVAL_MS: "1000",
        // several workers per test file, two files at a time: keep well inside PostgreSQL's 100 connections
        WEFT_DB_POOL_MAX: "4",
        OPENAI_BASE_URL: "",
        OPENAI_API_KEY: "",
        LOG_LEVEL: "info",
        NODE_ENV: "test",
        ...opts.env,
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const logs: string[] = [];
  const ready = new Promise<number>((resolve, reject) => {
    let partial = ""; // a chunk may end mid-line: keep the rest for the next one
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines.filter(Boolean)) {
        logs.push(line);
        const m = /"msg":"worker ready".*"healthPort":(\d+)/.exec(line);
        if (m) resolve(Number(m[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`worker exited early (${code}): ${logs.slice(-5).join("\n")}`)));
  });
  ready.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const w: WorkerProcess = { child, ready, exited, logs };
  ready.then(
    () => (w.readyAt = Date.now()),
    () => undefined,
  );
  return w;
}

/** Stops a worker with SIGTERM (SIGKILL after `ms`) and resolves with its exit code. */
export async function stopWorker(w: WorkerProcess, ms = 10_000): Promise<number | null> {
  if (w.child.exitCode !== null || w.child.signalCode !== null) return w.child.exitCode;
  w.child.kill("SIGTERM");
  const timer = setTimeout(() => w.child.kill("SIGKILL"), ms);
  const code = await w.exited;
  clearTimeout(timer);
  return code;
}

/** Polls `fn` every 100 ms until it returns a truthy value; throws after `ms`. */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | null | false>,
  ms = 60_000,
  what = "condition",
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Run statuses after which nothing more happens. */
export const TERMINAL = ["succeeded", "failed", "aborted", "budget_exhausted", "cancelled"];

/** Waits until the run is terminal; returns it with its steps (ordered by start) and events (by seq). */
/**
 * A run's steps as they are now, its step log folded in (lib/db/run-log.ts): how a test reads a
 * running run's steps (its Step rows may lag its log by up to WEFT_STEP_LOG_MS).
 */
export async function stepsNow(runId: string) {
  return (await readRunNow(runId))?.steps ?? [];
}

export async function waitTerminal(runId: string, ms = 60_000) {
  const run = await waitFor(
    async () => {
      const r = await db().run.findUnique({ where: { id: runId } });
      return r && TERMINAL.includes(r.status) ? r : null;
    },
    ms,
    `run ${runId} terminal`,
  );
  const steps = await db().step.findMany({ where: { runId }, orderBy: [{ startedAt: "asc" }] });
  const events = await db().runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } });
  return { run, steps, events };
}

/** Deletes every Redis key of one queue prefix (never the whole shared Redis). */
export async function flushPrefix(prefix: string): Promise<number> {
  const redis = createWorkerConnection("flush");
  let cursor = "0";
  let deleted = 0;
  try {
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** Model calls the scripted server logged for one rule id. */
export const modelCalls = (model: { requests(): { rule: string | null }[] }, rule: string): number =>
  model.requests().filter((r) => r.rule === rule).length;

/** Asserts a run's events carry seq 1, 2, 3, … with no gap and no duplicate. */
export function expectContiguousSeq(events: { seq: number }[]): void {
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
}

/**
 * start → n1 → … → end, one agent per marker: agent i's instructions contain `[[markers[i]]]`, so a
 * scripted rule `{ match: { system: "[[marker]]" } }` answers exactly that step.
 */
export function chainWorkflow(name: string, markers: string[]): WorkflowInput {
  const ids = markers.map((_, i) => `n${i + 1}`);
  return {
    name,
    agents: markers.map((m, i) => ({
      key: `a${i + 1}`,
      name: `A${i + 1}`,
      instructions: `[[${m}]] Agent ${i + 1}.`,
      model: { model: "scripted-demo" },
    })),
    nodes: [
      { id: "start", type: "start" },
      ...ids.map((id, i) => ({ id, type: "agent" as const, agent: `a${i + 1}`, task: `Step ${i + 1}` })),
      { id: "end", type: "end" },
    ],
    edges: ["start", ...ids].map((source, i, all) => ({
      id: `e${i}`,
      source,
      sourceHandle: i === 0 ? "next" : "done",
      target: all[i + 1] ?? "end",
    })),
  };
}

/** The worker of `workers` whose process holds `leaseOwner` (`host:pid:uuid:job:attempt`). */
export function workerOf(workers: WorkerProcess[], leaseOwner: string | null | undefined): WorkerProcess | undefined {
  return leaseOwner
    ? workers.find((w) => w.child.pid !== undefined && leaseOwner.includes(`:${w.child.pid}:`))
    : undefined;
}

/** True while the process has not exited. */
export const alive = (w: WorkerProcess): boolean => w.child.exitCode === null && w.child.signalCode === null;

/** Writes every worker's log lines (prefixed with its pid) to `file`, for reading after a failed or slow run. */
export function saveWorkerLogs(workers: WorkerProcess[], file: string): void {
  writeFileSync(file, workers.flatMap((w) => w.logs.map((l) => `[${w.child.pid}] ${l}`)).join("\n") + "\n");
}
