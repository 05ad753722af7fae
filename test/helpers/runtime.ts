import { afterAll, beforeAll } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { startScriptedServer, type FixtureInput, type ScriptedServer } from "@/lib/llm/scripted/server";
import { closeRunEventHub } from "@/lib/events";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { startRun } from "@/lib/runs/service";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { Workflow, WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase, type TestDatabase } from "@/test/db";
import { spawnWorker, stopWorker, waitTerminal, type WorkerProcess } from "@/test/helpers/worker";

/** Options for useWorkerRuntime; every field is optional. */
export type RuntimeOptions = {
  /** Rules the scripted server starts with; default none (tests `model.load(…, "add")` their own). */
  fixtures?: FixtureInput;
  /**
   * Also point THIS process's model and embedding calls at the scripted server (tests that seed the
   * knowledge base or create tools in-process); restored after all. Default false.
   */
  modelInProcess?: boolean;
  /** Extra environment for the worker process. */
  workerEnv?: Record<string, string>;
};

/** What useWorkerRuntime gives a test file; the getters throw when read before beforeAll has run. */
export type WorkerRuntime = {
  readonly database: { readonly current: TestDatabase };
  readonly prefix: string;
  readonly model: ScriptedServer;
  readonly worker: WorkerProcess;
  /** A test user created in beforeAll; `run` starts runs as this user. */
  readonly workspaceId: string;
  /** Saves `doc` as a workflow of `workspaceId`, starts a run and waits until it is terminal (default 60 s). */
  run(doc: WorkflowInput | Workflow, inputs?: Record<string, unknown>, ms?: number): ReturnType<typeof waitTerminal>;
};

/** Variables that would send model or embedding calls anywhere but the scripted server. */
const ROUTED_ELSEWHERE = [
  "OPENAI_BASE_URL",
  "OPENAI_API_KEY",
  "WEFT_SCRIPTED_MODEL_URL",
  "WEFT_EMBEDDING_BASE_URL",
  "WEFT_EMBEDDING_MODEL",
];

/**
 * Call at the top of an integration test file that runs workflows end to end: a fresh database and
 * queue prefix, the scripted model server over HTTP, one real worker process and a test user before
 * all tests; after all, the worker is stopped, the prefix's queue obliterated, queues, Redis and the
 * model server closed (the database is dropped by useTestDatabase).
 */
export function useWorkerRuntime(opts: RuntimeOptions = {}): WorkerRuntime {
  const database = useTestDatabase();
  const prefix = testQueuePrefix();
  const state: { model?: ScriptedServer; worker?: WorkerProcess; workspaceId?: string } = {};
  const envBefore = new Map<string, string | undefined>();
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started yet: use it inside a test or hook`);
    return value;
  };

  beforeAll(async () => {
    process.env.WEFT_QUEUE_PREFIX = prefix;
    state.model = await startScriptedServer({ fixtures: opts.fixtures ?? [{ rules: [] }] });
    if (opts.modelInProcess) routeThisProcessTo(state.model.port, envBefore);
    state.workspaceId = (await createTestUser()).id;
    const blanked = Object.fromEntries(ROUTED_ELSEWHERE.map((k) => [k, ""]));
    state.worker = spawnWorker({
      databaseUrl: database.current.url,
      prefix,
      modelPort: state.model.port,
      env: { ...blanked, ...opts.workerEnv },
    });
    await state.worker.ready;
  }, 180_000);

  afterAll(async () => {
    if (state.worker) await stopWorker(state.worker);
    await runsQueue()
      .obliterate({ force: true })
      .catch(() => undefined);
    await closeRunsQueue();
    await closeApiRedis();
    // requests that waited for a run (?wait=, MCP workflow tools) subscribed to its wake-ups
    await closeRunEventHub();
    await state.model?.close();
    restoreEnv(envBefore);
  });

  return {
    database,
    prefix,
    get model() {
      return started(state.model, "the scripted model server");
    },
    get worker() {
      return started(state.worker, "the worker");
    },
    get workspaceId() {
      return started(state.workspaceId, "the test user");
    },
    async run(doc, inputs = {}, ms = 60_000) {
      const workspaceId = started(state.workspaceId, "the test user");
      const { workflowId } = await createTestWorkflow(workspaceId, doc as WorkflowInput);
      const { run } = await startRun(workspaceId, workflowId, { inputs });
      return waitTerminal(run.id, ms);
    },
  };
}

function routeThisProcessTo(port: number, saved: Map<string, string | undefined>): void {
  for (const k of [...ROUTED_ELSEWHERE, "WEFT_SCRIPTED_MODEL_PORT"]) saved.set(k, process.env[k]);
  for (const k of ROUTED_ELSEWHERE) delete process.env[k];
  process.env.WEFT_SCRIPTED_MODEL_PORT = String(port);
  resetEnvCache();
}

function restoreEnv(saved: Map<string, string | undefined>): void {
  if (!saved.size) return;
  for (const [k, v] of saved) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}
