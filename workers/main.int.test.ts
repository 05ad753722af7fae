import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import {
  closeApiRedis,
  closeRunsQueue,
  closeSchedulesQueue,
  createWorkerConnection,
  enqueueRun,
  hasLiveRunJob,
  listScheduleTimers,
  queuePrefix,
  runsQueue,
  schedulesQueue,
} from "@/lib/queue";
import { reconcileOnce } from "@/workers/reconciler";
import { EARLY_JOB_MS } from "@/workers/run-worker";
import { startRun } from "@/lib/runs/service";
import { RUN_INSERT_LOCK_SQL } from "@/lib/run-store/run-insert";
import { createTestRun, createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { spawnWorker, TERMINAL, waitFor } from "@/test/helpers/worker";

const database = useTestDatabase();
const prefix = testQueuePrefix();
let model: ScriptedServer;
let workspaceId = "";

const agentWorkflow: WorkflowInput = {
  name: "Start → agent → end",
  inputs: [{ key: "topic", type: "string" }],
  agents: [
    {
      key: "writer",
      name: "Writer",
      instructions: "[[writer]] You write one sentence.",
      model: { model: "scripted-demo" },
    },
  ],
  nodes: [
    { id: "start", type: "start" },
    { id: "write", type: "agent", agent: "writer", task: "Write about {{inputs.topic}}" },
    { id: "end", type: "end", outputs: { text: "{{nodes.write.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "write" },
    { id: "e2", source: "write", sourceHandle: "done", target: "end" },
  ],
};

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = prefix;
  model = await startScriptedServer({
    fixtures: [
      {
        rules: [
          {
            id: "slow",
            match: { system: "[[slow]]" },
            sequence: [{ text: "late answer", delayMs: 15_000 }, { text: "Second worker answer." }],
          },
          {
            id: "crash",
            match: { system: "[[crash]]" },
            sequence: [{ text: "never delivered", delayMs: 60_000 }, { text: "Recovered answer." }],
          },
          {
            id: "zombie",
            match: { system: "[[zombie]]" },
            sequence: [{ text: "Zombie answer.", delayMs: 3_000 }, { text: "Fresh answer." }],
          },
          { id: "writer", match: { system: "[[writer]]" }, reply: { text: "Owls are quiet hunters." } },
        ],
      },
    ],
  });
  workspaceId = (await createTestUser()).id;
});

afterAll(async () => {
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await schedulesQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeRunsQueue();
  await closeSchedulesQueue();
  await closeApiRedis();
  await model?.close();
});

/** A worker process (like `npm run worker`) against this file's database, prefix and model server. */
const start = () => spawnWorker({ databaseUrl: database.current.url, prefix, modelPort: model.port });

describe("worker process", () => {
  it(
    "runs start → agent → end through BullMQ, PostgreSQL and the scripted model, serves /health, and exits 0 on SIGTERM",
    { timeout: 120_000 },
    async () => {
      const { workflowId } = await createTestWorkflow(workspaceId, agentWorkflow);
      const { run, dispatched } = await startRun(workspaceId, workflowId, { inputs: { topic: "owls" } });
      expect(dispatched).toBe(true);
      const worker = start();
      const port = await worker.ready;
      const health = await waitFor(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        const body = (await res.json()) as Record<string, unknown>;
        return res.status === 200 && body.heartbeatAgeMs !== null ? body : null; // it beats (liveness for the crash-loop rule)
      }, 20_000);
      expect(health).toMatchObject({ status: "ok", redis: "ready", db: "ok" });
      expect(health.heartbeatAgeMs).toBeLessThan(30_000);

      const done = await waitFor(async () => {
        const r = await db().run.findUnique({ where: { id: run.id }, include: { steps: true } });
        return r && ["succeeded", "failed", "aborted", "budget_exhausted", "cancelled"].includes(r.status) ? r : null;
      });
      expect(done.status, done.reason ?? "").toBe("succeeded");
      expect(done.steps.map((s) => [s.nodeId, s.status]).sort()).toEqual([
        ["end", "succeeded"],
        ["start", "succeeded"],
        ["write", "succeeded"],
      ]);
      expect(done.steps.find((s) => s.nodeId === "write")?.output).toEqual(
        expect.stringContaining("Owls are quiet hunters."),
      );
      expect(model.requests().some((r) => r.rule === "writer")).toBe(true);
      const events = await db().runEvent.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.at(-1)?.type).toBe("run_finished");

      worker.child.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
      expect(worker.logs.some((l) => l.includes('"msg":"worker stopped"'))).toBe(true);
    },
  );
});

describe("schedules in the worker process", () => {
  it(
    "sets the timer of a schedule PostgreSQL holds and Redis lacks, and turns a tick into a run",
    { timeout: 60_000 },
    async () => {
      const { workflowId } = await createTestWorkflow(workspaceId, agentWorkflow);
      // as if saved while Redis was down: the row only, no timer
      const schedule = await db().schedule.create({
        data: { workspaceId, workflowId, cron: "0 6 * * *", timezone: "Europe/Paris", inputs: { topic: "herons" } },
      });
      const worker = start();
      try {
        await worker.ready;
        await waitFor(
          async () =>
            (await listScheduleTimers()).find(
              (t) => t.id === schedule.id && t.cron === "0 6 * * *" && t.timezone === "Europe/Paris",
            ),
          20_000,
          "the timer",
        );
        // the job the timer makes at 06:00, delivered now
        const tick = Date.parse("2026-12-03T05:00:00Z");
        await schedulesQueue().add(
          "fire",
          { scheduleId: schedule.id },
          { jobId: `tick-${schedule.id}`, prevMillis: tick },
        );
        const fired = await waitFor(
          async () => {
            const s = await db().schedule.findUnique({ where: { id: schedule.id } });
            return s?.lastRunId ? s : null;
          },
          20_000,
          "the fire",
        );
        expect(fired.lastTickAt?.getTime()).toBe(tick);
        const run = await waitFor(async () => {
          const r = await db().run.findUnique({ where: { id: fired.lastRunId! } });
          return r && TERMINAL.includes(r.status) ? r : null;
        }, 30_000);
        expect(run.status, run.reason ?? "").toBe("succeeded");
        expect(run.inputs).toEqual({ topic: "herons" });
        expect(worker.logs.some((l) => l.includes('"msg":"schedule fired"') && l.includes('"kind":"started"'))).toBe(
          true,
        );
      } finally {
        worker.child.kill("SIGTERM");
        expect(await worker.exited).toBe(0);
      }
    },
  );
});

describe("a job that arrives before its run's row (startRun writes both at once)", () => {
  /** The "run job done" log lines of jobs for `runId` (the worker logs each job's reason and outcome). */
  const jobsDone = (worker: ReturnType<typeof start>, runId: string) =>
    worker.logs.filter((l) => l.includes('"msg":"run job done"') && l.includes(runId));
  /** The run ends succeeded, run by its own start job, not by the reconciler (which re-enqueues queued runs older than RECONCILE_MIN_AGE_MS). */
  const expectRunByItsStartJob = async (worker: ReturnType<typeof start>, id: string) => {
    const done = await waitFor(async () => {
      const r = await db().run.findUnique({ where: { id } });
      return r && TERMINAL.includes(r.status) && jobsDone(worker, id).length > 0 ? r : null;
    }, 20_000);
    expect(done.status, done.reason ?? "").toBe("succeeded");
    const lines = jobsDone(worker, id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"reason":"start"');
    expect(lines[0]).toContain('"kind":"terminal"');
  };

  it(
    "is claimed again until the row is committed and runs it at once; a job whose run never appears ends not_found",
    { timeout: 60_000 },
    async () => {
      const worker = start();
      try {
        await worker.ready;
        const { versionId } = await createTestWorkflow(workspaceId, agentWorkflow);
        const id = randomUUID();
        await enqueueRun(id, "start");
        await new Promise((r) => setTimeout(r, 300));
        await db().run.create({
          data: { id, workspaceId, workflowVersionId: versionId, status: "queued", inputs: { topic: "larks" } },
        });
        await expectRunByItsStartJob(worker, id);

        const ghost = randomUUID();
        const enqueued = Date.now();
        await enqueueRun(ghost, "start");
        const line = await waitFor(async () => jobsDone(worker, ghost)[0], 30_000);
        expect(line).toContain('"kind":"not_found"');
        expect(Date.now() - enqueued).toBeGreaterThan(EARLY_JOB_MS / 2);
      } finally {
        worker.child.kill("SIGTERM");
        await worker.exited;
      }
    },
  );

  it(
    "waits for its row's insert while that insert is in flight, however long it takes, and then runs it",
    { timeout: 60_000 },
    async () => {
      const { versionId } = await createTestWorkflow(workspaceId, agentWorkflow);
      const id = randomUUID();
      // startRun's insert as it is while its job is already on its way: the insert's lock taken, the row written, not committed
      const inserter = new pg.Client({ connectionString: database.current.url });
      await inserter.connect();
      const worker = start();
      let open = false;
      try {
        await worker.ready;
        await inserter.query("BEGIN");
        open = true;
        await inserter.query(RUN_INSERT_LOCK_SQL, [id]);
        await inserter.query(
          `INSERT INTO "Run" (id, "workspaceId", "workflowVersionId", status, inputs) VALUES ($1, $2, $3, 'queued', $4::jsonb)`,
          [id, workspaceId, versionId, JSON.stringify({ topic: "wrens" })],
        );
        const enqueued = Date.now();
        await enqueueRun(id, "start");
        // the worker found no row and now waits on the insert's lock (advisory locks are per database: this file's)
        await waitFor(
          async () => {
            const res = await inserter.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            );
            return res.rows[0]!.n > 0;
          },
          20_000,
          "the worker waiting for the insert",
        );
        // an insert slower than the early-job window: a job that only paused and claimed again would have given up by now
        await new Promise((r) => setTimeout(r, Math.max(0, enqueued + EARLY_JOB_MS + 200 - Date.now())));
        await inserter.query("COMMIT");
        open = false;
        await expectRunByItsStartJob(worker, id);
      } finally {
        if (open) await inserter.query("ROLLBACK").catch(() => undefined);
        await inserter.end();
        worker.child.kill("SIGTERM");
        await worker.exited;
      }
    },
  );

  it(
    "runs started back to back are each run by their own start job, none left to the reconciler",
    { timeout: 120_000 },
    async () => {
      const RUNS = 55; // under WEFT_RUN_START_LIMIT (60 per minute and user)
      const worker = start();
      try {
        await worker.ready;
        // a user of its own: WEFT_RUN_START_LIMIT (60 per minute) counts per user
        const user = (await createTestUser()).id;
        const { workflowId } = await createTestWorkflow(user);
        const ids: string[] = [];
        for (let i = 0; i < RUNS; i++) {
          const { run } = await startRun(user, workflowId, { inputs: {} });
          ids.push(run.id);
          await waitFor(
            async () => TERMINAL.includes((await db().run.findUniqueOrThrow({ where: { id: run.id } })).status),
            20_000,
            `run ${i} ends`,
          );
        }
        const runs = await db().run.findMany({ where: { id: { in: ids } } });
        expect(runs.filter((r) => r.status !== "succeeded")).toEqual([]);
        const lines = await waitFor(
          async () => {
            const all = ids.map((id) => jobsDone(worker, id));
            return all.every((l) => l.length > 0) ? all : null;
          },
          20_000,
          "every run's job logged",
        );
        // exactly one job per run, its start job, and it ran the run (a start job that gave up would be followed by a reconcile job)
        expect(
          lines.filter(
            (l) => l.length !== 1 || !l[0]!.includes('"reason":"start"') || !l[0]!.includes('"kind":"terminal"'),
          ),
        ).toEqual([]);
      } finally {
        worker.child.kill("SIGTERM");
        await worker.exited;
      }
      // one claim per run, however early its job came
      const stopped = worker.logs.find((l) => l.includes('"msg":"worker stopped"'));
      const stats = (JSON.parse(stopped!) as { store: { claims: number } }).store;
      expect(stats.claims).toBe(RUNS);
    },
  );
});

describe("graceful shutdown (D10)", () => {
  it("SIGTERM mid-step hands the run back (exit 0) and another worker finishes it", { timeout: 180_000 }, async () => {
    const slow: WorkflowInput = {
      ...agentWorkflow,
      agents: [
        {
          key: "writer",
          name: "Writer",
          instructions: "[[slow]] You take your time.",
          model: { model: "scripted-demo" },
        },
      ],
    };
    const { workflowId } = await createTestWorkflow(workspaceId, slow);
    const { run } = await startRun(workspaceId, workflowId, { inputs: { topic: "tortoises" } });
    const first = start();
    await first.ready;
    await waitFor(
      async () => (await db().step.findFirst({ where: { runId: run.id, nodeId: "write", status: "running" } })) ?? null,
    );
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    const handedBack = await db().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(handedBack.status).toBe("running");
    expect(handedBack.leaseOwner).toBeNull();
    expect(await hasLiveRunJob(run.id)).toBe(true);

    const second = start();
    await second.ready;
    const done = await waitFor(async () => {
      const r = await db().run.findUnique({ where: { id: run.id }, include: { steps: true } });
      return r && r.status !== "running" && r.status !== "queued" ? r : null;
    }, 90_000);
    expect(done.status, done.reason ?? "").toBe("succeeded");
    const write = done.steps.find((s) => s.nodeId === "write");
    expect(write?.attempt).toBe(2);
    expect(write?.output).toEqual(expect.stringContaining("Second worker answer."));
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});

describe("crash recovery (D2)", () => {
  it(
    "a worker SIGKILLed mid-step: the job is re-delivered (stall check) and the run finishes on another worker",
    { timeout: 180_000 },
    async () => {
      const crashy: WorkflowInput = {
        ...agentWorkflow,
        agents: [
          {
            key: "writer",
            name: "Writer",
            instructions: "[[crash]] You are interrupted.",
            model: { model: "scripted-demo" },
          },
        ],
      };
      const { workflowId } = await createTestWorkflow(workspaceId, crashy);
      const { run } = await startRun(workspaceId, workflowId, { inputs: { topic: "crashes" } });
      const first = start();
      await first.ready;
      await waitFor(
        async () =>
          (await db().step.findFirst({ where: { runId: run.id, nodeId: "write", status: "running" } })) ?? null,
      );
      const second = start();
      await second.ready;
      first.child.kill("SIGKILL");
      const killedAt = Date.now();
      await first.exited;
      const done = await waitFor(async () => {
        const r = await db().run.findUnique({ where: { id: run.id }, include: { steps: true } });
        return r && r.status !== "running" && r.status !== "queued" ? r : null;
      }, 120_000);
      const recoveryMs = Date.now() - killedAt;
      console.info(`D2 time to recovery after SIGKILL: ${recoveryMs} ms`);
      expect(done.status, done.reason ?? "").toBe("succeeded");
      const write = done.steps.find((s) => s.nodeId === "write");
      expect(write?.attempt).toBe(2);
      expect(write?.output).toEqual(expect.stringContaining("Recovered answer."));
      const starts = done.steps.filter((s) => s.nodeId === "start");
      expect(starts).toHaveLength(1);
      const events = await db().runEvent.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    },
  );
});

describe("zombie worker (D4)", () => {
  it(
    "a worker frozen past its lock loses the run; its late commit is refused and the second worker's result stands",
    { timeout: 180_000 },
    async () => {
      const zombie: WorkflowInput = {
        ...agentWorkflow,
        agents: [
          { key: "writer", name: "Writer", instructions: "[[zombie]] You freeze.", model: { model: "scripted-demo" } },
        ],
      };
      const { workflowId } = await createTestWorkflow(workspaceId, zombie);
      const { run } = await startRun(workspaceId, workflowId, { inputs: { topic: "zombies" } });
      const a = start();
      await a.ready;
      await waitFor(async () => model.requests().some((r) => r.rule === "zombie"));
      a.child.kill("SIGSTOP");
      const b = start();
      await b.ready;
      const done = await waitFor(async () => {
        const r = await db().run.findUnique({ where: { id: run.id }, include: { steps: true } });
        return r && r.status !== "running" && r.status !== "queued" ? r : null;
      }, 120_000);
      a.child.kill("SIGCONT");
      await waitFor(async () => a.logs.some((l) => l.includes('"msg":"commit refused"')), 30_000);
      expect(done.status, done.reason ?? "").toBe("succeeded");
      const write = done.steps.find((s) => s.nodeId === "write");
      expect(write?.output).toEqual(expect.stringContaining("Fresh answer."));
      const after = await db().step.findFirstOrThrow({ where: { runId: run.id, nodeId: "write" } });
      expect(after.output).toEqual(write?.output);
      const finished = await db().runEvent.count({ where: { runId: run.id, type: "run_finished" } });
      expect(finished).toBe(1);
      a.child.kill("SIGTERM");
      b.child.kill("SIGTERM");
      expect(await a.exited).toBe(0);
      expect(await b.exited).toBe(0);
    },
  );
});

describe("reconciler (D6)", () => {
  it("re-enqueues live runs whose jobs vanished with this prefix's Redis keys, and leaves finished runs alone", async () => {
    const live = await createTestRun(workspaceId, "running");
    const queued = await createTestRun(workspaceId, "queued");
    const finished = await createTestRun(workspaceId, "succeeded");
    await enqueueRun(live, "start");
    expect(await hasLiveRunJob(live)).toBe(true);

    // "FLUSHALL", limited to this file's prefix (other test runs share the Redis)
    const redis = createWorkerConnection("flush");
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${queuePrefix()}:*`, "COUNT", 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== "0");
    redis.disconnect();
    expect(await hasLiveRunJob(live)).toBe(false);

    const enqueued = await reconcileOnce(0);
    expect(enqueued).toEqual(expect.arrayContaining([live, queued]));
    expect(enqueued).not.toContain(finished);
    expect(await hasLiveRunJob(live)).toBe(true);
    expect(await hasLiveRunJob(queued)).toBe(true);
    expect(await reconcileOnce(0)).toEqual([]);
  });
});
