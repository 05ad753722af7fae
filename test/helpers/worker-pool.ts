import { afterAll, beforeAll } from "vitest";
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from "@/lib/llm/scripted/server";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { createTestUser } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { alive, spawnWorker, stopWorker, type WorkerProcess } from "./worker";

/** A fault-test file's runtime: its database, queue prefix, scripted model, owner and worker processes. */
export interface WorkerPool {
  readonly prefix: string;
  readonly databaseUrl: string;
  readonly model: ScriptedServer;
  readonly workspaceId: string;
  /** Every worker this file started (dead ones included). */
  readonly workers: WorkerProcess[];
  /** Spawns one more worker (not awaited: its `ready` resolves once it listens). */
  start(): WorkerProcess;
  /** The workers still running. */
  live(): WorkerProcess[];
}

export interface WorkerPoolOptions {
  fixtures: ScriptedServerOptions["fixtures"];
  /** Workers started (and awaited) before the first test. */
  size: number;
  /** Extra environment of every spawned worker. */
  workerEnv?: Record<string, string>;
  /** Runs after the owner exists and before the first workers start (e.g. tools to register). */
  setup?: (pool: WorkerPool) => Promise<void>;
}

/**
 * Call at the top of a fault-test file: before all tests, a fresh database and queue prefix, the
 * scripted model server, a test user and `size` worker processes; after all, every worker stopped
 * (frozen ones resumed first), this prefix's queue obliterated, queue/Redis/model closed.
 */
export function useWorkerPool(opts: WorkerPoolOptions): WorkerPool {
  const database = useTestDatabase();
  const prefix = testQueuePrefix();
  let model: ScriptedServer | undefined;
  let workspaceId = "";
  const workers: WorkerProcess[] = [];
  const pool: WorkerPool = {
    prefix,
    get databaseUrl() {
      return database.current.url;
    },
    get model() {
      if (!model) throw new Error("the scripted model starts in beforeAll");
      return model;
    },
    get workspaceId() {
      return workspaceId;
    },
    workers,
    start() {
      const w = spawnWorker({
        databaseUrl: database.current.url,
        prefix,
        modelPort: pool.model.port,
        ...(opts.workerEnv ? { env: opts.workerEnv } : {}),
      });
      workers.push(w);
      return w;
    },
    live: () => workers.filter(alive),
  };

  beforeAll(async () => {
    process.env.WEFT_QUEUE_PREFIX = prefix;
    model = await startScriptedServer({ fixtures: opts.fixtures });
    workspaceId = (await createTestUser()).id;
    await opts.setup?.(pool);
    await Promise.all(Array.from({ length: opts.size }, () => pool.start().ready));
  }, 480_000);

  afterAll(async () => {
    await Promise.all(
      workers.map(async (w) => {
        w.child.kill("SIGCONT");
        await stopWorker(w, 20_000);
      }),
    );
    await runsQueue()
      .obliterate({ force: true })
      .catch(() => undefined);
    await closeRunsQueue();
    await closeApiRedis();
    await model?.close();
  }, 120_000);

  return pool;
}
