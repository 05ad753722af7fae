import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getRunForOwner } from "@/lib/db/runs";
import { readRunNow } from "@/lib/db/run-log";
import type { RunCommit, StepResultWrite } from "@/lib/engine/ports";
import { useTestDatabase } from "@/test/db";
import { settleHeld } from "./held-commit";
import { heldRun, setLogWindowMs } from "./held-runs";
import { LOG_APPEND } from "./step-log-sql";
import { postgresStore, storeStats } from "./postgres-store";
import { closeRunStorePool } from "./run-sql";
import { createTestRun, createTestUser, untilSomeoneWaitsForALock } from "@/test/fixtures";

/**
 * The step log (migration run_step_log, held-runs.ts, held-commit.ts): a running run's commits that
 * change no status are stored as their events alone; every reader and every claim sees them.
 */
useTestDatabase();
let workspaceId = "";
beforeAll(async () => {
  workspaceId = (await createTestUser()).id;
});
afterEach(() => setLogWindowMs(1_000));
afterAll(async () => {
  await closeRunStorePool();
});

const store = postgresStore();
const at = (ms = 0) => new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678) + ms);
const start = (nodeId: string, attempt = 1) => ({
  nodeId,
  iteration: 1,
  attempt,
  kind: "agent",
  input: { via: [nodeId] },
  at: at(),
});
const result = (nodeId: string, extra: Partial<StepResultWrite> = {}): StepResultWrite => ({
  nodeId,
  iteration: 1,
  attempt: 1,
  status: "succeeded",
  output: { text: nodeId },
  branch: "next",
  promptTokens: 2,
  completionTokens: 3,
  latencyMs: 7,
  error: null,
  at: at(10),
  ...extra,
});
const started = (nodeId: string) => ({
  type: "step_started" as const,
  nodeId,
  iteration: 1,
  attempt: 1,
  kind: "agent",
});
const finished = (nodeId: string) => ({
  type: "step_finished" as const,
  nodeId,
  iteration: 1,
  status: "succeeded" as const,
  promptTokens: 2,
  completionTokens: 3,
});
const stepRows = async (runId: string) =>
  (await db().step.findMany({ where: { runId }, orderBy: { nodeId: "asc" } })).map((s) => `${s.nodeId}:${s.status}`);
const eventCount = (runId: string) => db().runEvent.count({ where: { runId } });

/** A run claimed by `owner` and started (status running) with node a running; answers the engine's version. */
async function running(owner = "w"): Promise<{ runId: string; v: number }> {
  const runId = await createTestRun(workspaceId, "queued");
  const c = await store.claimRun(runId, owner);
  if (!c.ok) throw new Error("claim failed");
  const first = await store.commit(runId, {
    owner,
    expectedVersion: c.run.version,
    stepStarts: [start("a")],
    run: { status: "running", startedAt: at(), plannerState: { n: 1 }, addSteps: 1 },
    events: [started("a")],
  });
  if (!first.ok) throw new Error("start failed");
  return { runId, v: first.version };
}

/** Node `done` finished and `next` started, with the planner state `n`: a chain step's commit. */
const step = (owner: string, v: number, done: string, next: string, n: number): RunCommit => ({
  owner,
  expectedVersion: v,
  stepResults: [result(done)],
  stepStarts: [start(next)],
  run: { plannerState: { n }, addTokens: { promptTokens: 2, completionTokens: 3 }, addSteps: 1 },
  events: [finished(done), started(next)],
});

describe("step log", () => {
  it("stores a running run's step commits as events alone; readers fold them; after the run's end every row is written", async () => {
    const { runId, v } = await running();
    const logged = storeStats().logged;
    const b = await store.commit(runId, step("w", v, "a", "b", 2));
    const c = await store.commit(runId, step("w", v + 1, "b", "c", 3));
    expect(b).toMatchObject({ ok: true, version: v + 1, events: [{ seq: 2 }, { seq: 3 }] });
    expect(c).toMatchObject({ ok: true, version: v + 2, events: [{ seq: 4 }, { seq: 5 }] });
    expect(storeStats().logged).toBe(logged + 2);
    // the rows are as the run's start left them; the log holds the rest, and readers fold it in
    expect(await stepRows(runId)).toEqual(["a:running"]);
    const now = await readRunNow(runId);
    expect(now).toMatchObject({ promptTokens: 4, completionTokens: 6, stepCount: 3, lastSeq: 5 });
    expect(now!.steps.map((s) => `${s.nodeId}:${s.status}`)).toEqual(["a:succeeded", "b:succeeded", "c:running"]);
    expect(now!.steps[0]).toMatchObject({
      output: { text: "a" },
      branch: "next",
      latencyMs: 7,
      startedAt: at(),
      finishedAt: at(10),
      leaseOwner: "w",
    });
    const detail = await getRunForOwner(workspaceId, runId);
    expect(detail).toMatchObject({ lastSeq: 5, stepCount: 3, promptTokens: 4 });
    expect(detail!.steps.map((s) => s.nodeId)).toEqual(["a", "b", "c"]);

    const end = await store.commit(runId, {
      owner: "w",
      expectedVersion: v + 2,
      stepResults: [result("c")],
      run: {
        status: "succeeded",
        reason: "done",
        finishedAt: at(20),
        outputs: { x: 1 },
        plannerState: { n: 4 },
        addTokens: { promptTokens: 2, completionTokens: 3 },
      },
      events: [finished("c"), { type: "run_finished", status: "succeeded", reason: "done" }],
    });
    expect(end).toMatchObject({ ok: true, version: v + 3, events: [{ seq: 6 }, { seq: 7 }] });
    expect(storeStats().logged).toBe(logged + 3);
    await settleHeld(runId);
    expect(await stepRows(runId)).toEqual(["a:succeeded", "b:succeeded", "c:succeeded"]);
    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({
      status: "succeeded",
      state: { n: 4 },
      promptTokens: 6,
      completionTokens: 9,
      stepCount: 3,
      nextSeq: 8,
    });
    expect(await readRunNow(runId)).toMatchObject({ promptTokens: 6, stepCount: 3, lastSeq: 7 });
    expect(heldRun(runId, "w")).toBeUndefined();
  });

  it("a claim folds the log its previous holder left; that holder's later commits are refused and write nothing", async () => {
    const { runId, v } = await running("old");
    expect((await store.commit(runId, step("old", v, "a", "b", 2))).ok).toBe(true);
    const claimed = await store.claimRun(runId, "new");
    if (!claimed.ok) throw new Error("claim failed");
    expect(claimed.run.plannerState).toEqual({ n: 2 });
    expect(claimed.run.steps.map((s) => `${s.nodeId}:${s.status}`).sort()).toEqual(["a:succeeded", "b:running"]);
    expect(claimed.run).toMatchObject({ promptTokens: 2, completionTokens: 3 });
    expect(await stepRows(runId)).toEqual(["a:succeeded", "b:running"]);
    const events = await eventCount(runId);
    expect(await store.commit(runId, step("old", v + 1, "b", "c", 3))).toMatchObject({
      ok: false,
      reason: "lost_lease",
    });
    expect(await eventCount(runId)).toBe(events);
    // the new holder goes on from the folded rows (re-dispatching the step the old one had started), in the log again
    const logged = storeStats().logged;
    const next = await store.commit(runId, {
      owner: "new",
      expectedVersion: claimed.run.version,
      stepStarts: [start("b", 2)],
      events: [{ ...started("b"), attempt: 2 }],
    });
    expect(next).toMatchObject({ ok: true, events: [{ seq: events + 1 }] });
    expect(storeStats().logged).toBe(logged + 1);
    expect(
      (await readRunNow(runId))!.steps.map((s) => `${s.nodeId}:${s.status}:${s.attempt}:${s.leaseOwner}`).sort(),
    ).toEqual(["a:succeeded:1:old", "b:running:2:new"]);
  });

  it("a logged end: readers show it before the rows are written, which waits for nobody but the end's own write", async () => {
    const { runId, v } = await running();
    expect((await store.commit(runId, step("w", v, "a", "b", 2))).ok).toBe(true);
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      // a share lock lets the end's append pass (it takes one too) and holds the row write (an UPDATE) back
      await other.query("BEGIN");
      await other.query(`SELECT 1 FROM "Run" WHERE id = $1 FOR SHARE`, [runId]);
      const end = await store.commit(runId, {
        owner: "w",
        expectedVersion: v + 1,
        stepResults: [result("b")],
        run: { status: "failed", reason: "b said no", finishedAt: at(30), plannerState: { n: 3 } },
        events: [finished("b"), { type: "run_finished", status: "failed", reason: "b said no" }],
      });
      expect(end).toMatchObject({ ok: true, events: [{ seq: 4 }, { seq: 5 }] });
      await untilSomeoneWaitsForALock(other);
      expect(await db().run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
        status: "running",
        finishedAt: null,
      });
      expect(await stepRows(runId)).toEqual(["a:running"]);
      const detail = await getRunForOwner(workspaceId, runId);
      expect(detail).toMatchObject({ status: "failed", reason: "b said no", finishedAt: at(30), lastSeq: 5 });
      expect(detail!.steps.map((s) => `${s.nodeId}:${s.status}`)).toEqual(["a:succeeded", "b:succeeded"]);
      const settled = settleHeld(runId);
      await other.query("COMMIT");
      await settled;
      expect(await db().run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
        status: "failed",
        reason: "b said no",
        finishedAt: at(30),
        state: { n: 3 },
        nextSeq: 6,
      });
      expect(await stepRows(runId)).toEqual(["a:succeeded", "b:succeeded"]);
      expect(heldRun(runId, "w")).toBeUndefined();
    } finally {
      await other.end();
    }
  });

  it("a claim folds an end its holder logged but did not write (it died in between): the run is over", async () => {
    const { runId } = await running("old");
    const h = heldRun(runId, "old")!;
    const row = {
      id: "row-a",
      nodeId: "a",
      iteration: 1,
      attempt: 1,
      status: "succeeded",
      input: null,
      output: { text: "a" },
      branch: null,
      promptTokens: 2,
      completionTokens: 3,
      latencyMs: 7,
      error: null,
      leaseOwner: "old",
      createdAt: at().toISOString(),
      startedAt: at().toISOString(),
      finishedAt: at(10).toISOString(),
    };
    const entry = {
      rows: [row],
      addPrompt: 2,
      addCompletion: 3,
      end: { status: "succeeded", reason: "done", outputs: { x: 2 }, finishedAt: at(20).toISOString() },
    };
    const appended = await db().$executeRawUnsafe(
      LOG_APPEND.text,
      runId,
      h.dbVersion,
      "old",
      h.next,
      at().toISOString(),
      2,
      JSON.stringify(entry),
      JSON.stringify([
        { type: "step_finished", payload: { nodeId: "a" } },
        { type: "run_finished", payload: { status: "succeeded" } },
      ]),
    );
    expect(appended).toBe(2);
    expect(await store.claimRun(runId, "new")).toEqual({ ok: false, reason: "terminal" });
    expect(await db().run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "succeeded",
      reason: "done",
      outputs: { x: 2 },
      finishedAt: at(20),
      promptTokens: 2,
      nextSeq: h.next + 2,
    });
    expect(await stepRows(runId)).toEqual(["a:succeeded"]);
    expect((await readRunNow(runId))!.end).toBeNull();
  });

  it("a claim that waited for an append in flight folds it", async () => {
    const { runId } = await running("old");
    const h = heldRun(runId, "old")!;
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query("BEGIN");
      const row = {
        id: "row-b",
        nodeId: "b",
        iteration: 1,
        attempt: 1,
        status: "running",
        input: null,
        output: null,
        branch: null,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: null,
        error: null,
        leaseOwner: "old",
        createdAt: at().toISOString(),
        startedAt: at().toISOString(),
        finishedAt: null,
      };
      const appended = await other.query({
        text: LOG_APPEND.text,
        values: [
          runId,
          h.dbVersion,
          "old",
          h.next,
          at().toISOString(),
          1,
          JSON.stringify({ rows: [row], state: { n: 9 }, addSteps: 1 }),
          JSON.stringify([{ type: "step_started", payload: { nodeId: "b" } }]),
        ],
      });
      expect(appended.rowCount).toBe(1);
      const claim = store.claimRun(runId, "new");
      await untilSomeoneWaitsForALock(other);
      await other.query("COMMIT");
      const c = await claim;
      if (!c.ok) throw new Error("claim failed");
      expect(c.run.plannerState).toEqual({ n: 9 });
      expect(c.run.steps.map((s) => s.nodeId).sort()).toEqual(["a", "b"]);
      expect((await db().run.findUniqueOrThrow({ where: { id: runId } })).stepCount).toBe(2);
    } finally {
      await other.end();
    }
  });

  it("writes the rows again once the log holds commits older than WEFT_STEP_LOG_MS, and never logs a waiting review", async () => {
    setLogWindowMs(40);
    const { runId, v } = await running();
    const { logged, written } = storeStats();
    expect((await store.commit(runId, step("w", v, "a", "b", 2))).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect((await store.commit(runId, step("w", v + 1, "b", "c", 3))).ok).toBe(true);
    expect(storeStats()).toMatchObject({ logged: logged + 1, written: written + 1 });
    expect(await stepRows(runId)).toEqual(["a:succeeded", "b:succeeded", "c:running"]);
    expect(await db().run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      state: { n: 3 },
      promptTokens: 4,
      stepCount: 3,
      nextSeq: 6,
    });

    setLogWindowMs(1_000);
    const asked = await store.commit(runId, {
      owner: "w",
      expectedVersion: v + 2,
      stepResults: [result("c", { status: "waiting", output: { question: "ok?" } })],
      events: [
        {
          type: "input_requested",
          nodeId: "c",
          iteration: 1,
          prompt: "ok?",
          choices: [{ id: "yes", label: "Yes" }],
          fields: [],
        },
      ],
    });
    expect(asked.ok).toBe(true);
    expect(storeStats().written).toBe(written + 2);
    expect(await stepRows(runId)).toContain("c:waiting");
  });

  it("refuses a result of a step not running under this holder and attempt as the row guard does, writing nothing", async () => {
    const { runId, v } = await running();
    const events = await eventCount(runId);
    const wrong = { ...step("w", v, "a", "b", 2), stepResults: [result("a", { attempt: 2 })] };
    expect(await store.commit(runId, wrong)).toMatchObject({
      ok: false,
      reason: "lost_lease",
      detail: expect.stringContaining("step a#1 attempt 2"),
    });
    expect(await eventCount(runId)).toBe(events);
    expect((await readRunNow(runId))!.steps.map((s) => `${s.nodeId}:${s.status}`)).toEqual(["a:running"]);
  });
});
