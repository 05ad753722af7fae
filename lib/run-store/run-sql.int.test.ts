import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { RunCommit, StepResultWrite } from "@/lib/engine/ports";
import { useTestDatabase } from "@/test/db";
import { postgresStore, storeStats } from "./postgres-store";
import { closeRunStorePool, commitQuery } from "./run-sql";
import { setLogWindowMs } from "./held-runs";
import { createTestRun, createTestUser, untilSomeoneWaitsForALock } from "@/test/fixtures";

/**
 * The single-statement commit (run-sql.ts): same answers and rows as the transactional path. With
 * the step log off: its commits are tested in step-log.int.test.ts.
 */
useTestDatabase();
let workspaceId = "";
beforeAll(async () => {
  setLogWindowMs(0);
  workspaceId = (await createTestUser()).id;
});
afterAll(async () => {
  setLogWindowMs(1_000);
  await closeRunStorePool();
});

const store = postgresStore();
const at = (ms = 0) => new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678) + ms);
const result = (nodeId: string, attempt = 1, extra: Partial<StepResultWrite> = {}): StepResultWrite => ({
  nodeId,
  iteration: 1,
  attempt,
  status: "succeeded",
  output: { text: nodeId },
  branch: "done",
  promptTokens: 2,
  completionTokens: 3,
  latencyMs: 7,
  error: null,
  at: at(10),
  ...extra,
});
const start = (nodeId: string, attempt = 1) => ({
  nodeId,
  iteration: 1,
  attempt,
  kind: "agent",
  input: { via: ["x"] },
  at: at(),
});

async function claimed(owner = "w") {
  const runId = await createTestRun(workspaceId, "queued");
  const c = await store.claimRun(runId, owner);
  if (!c.ok) throw new Error("claim failed");
  return { runId, version: c.run.version };
}

const runStarted = (inputs: Record<string, unknown> = {}) => ({
  type: "run_started" as const,
  inputs,
  resumed: false,
  redispatched: [],
});
const rows = async (runId: string) => db().step.findMany({ where: { runId }, orderBy: { nodeId: "asc" } });
const seqs = async (runId: string) =>
  (await db().runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((e) => `${e.seq}:${e.type}`);

describe("single-statement commit", () => {
  it("writes starts, results, run changes and events in one go; timestamps are stored as given (UTC)", async () => {
    const { runId, version } = await claimed();
    const first = await store.commit(runId, {
      owner: "w",
      expectedVersion: version,
      stepStarts: [start("a")],
      run: { status: "running", startedAt: at(), plannerState: { v: 1, n: 1 }, addSteps: 1 },
      events: [runStarted(), { type: "step_started", nodeId: "a", iteration: 1, attempt: 1, kind: "agent" }],
    });
    expect(first).toMatchObject({ ok: true, version: version + 1, events: [{ seq: 1 }, { seq: 2 }] });
    const second = await store.commit(runId, {
      owner: "w",
      expectedVersion: version + 1,
      stepResults: [result("a")],
      run: { plannerState: { v: 1, n: 2 }, addTokens: { promptTokens: 2, completionTokens: 3 } },
      events: [
        {
          type: "step_finished",
          nodeId: "a",
          iteration: 1,
          status: "succeeded",
          promptTokens: 2,
          completionTokens: 3,
          output: { text: "a" },
        },
      ],
    });
    expect(second).toMatchObject({ ok: true, version: version + 2, events: [{ seq: 3 }] });
    expect(await rows(runId)).toMatchObject([
      {
        nodeId: "a",
        status: "succeeded",
        attempt: 1,
        output: { text: "a" },
        branch: "done",
        latencyMs: 7,
        input: { via: ["x"] },
        leaseOwner: "w",
        startedAt: at(),
        finishedAt: at(10),
      },
    ]);
    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({
      status: "running",
      startedAt: at(),
      state: { v: 1, n: 2 },
      promptTokens: 2,
      completionTokens: 3,
      stepCount: 1,
      nextSeq: 4,
      version: version + 2,
    });
    const stored = await db().runEvent.findFirstOrThrow({ where: { runId, seq: 3 } });
    expect(stored.payload).toEqual({
      nodeId: "a",
      iteration: 1,
      status: "succeeded",
      promptTokens: 2,
      completionTokens: 3,
      output: { text: "a" },
    });
    expect(Math.abs(stored.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("an instant step's start and result in one commit leave one finished row", async () => {
    const { runId, version } = await claimed();
    const res = await store.commit(runId, {
      owner: "w",
      expectedVersion: version,
      stepStarts: [start("s"), start("n")],
      stepResults: [result("s")],
    });
    expect(res.ok).toBe(true);
    expect(await rows(runId)).toMatchObject([
      { nodeId: "n", status: "running", output: null },
      { nodeId: "s", status: "succeeded", output: { text: "s" }, finishedAt: at(10), promptTokens: 2 },
    ]);
  });

  it("a result and the same row's restart (next attempt) in one commit leave the restarted row", async () => {
    const { runId, version } = await claimed();
    expect((await store.commit(runId, { owner: "w", expectedVersion: version, stepStarts: [start("a")] })).ok).toBe(
      true,
    );
    const res = await store.commit(runId, {
      owner: "w",
      expectedVersion: version + 1,
      stepResults: [result("a", 1, { status: "failed", output: null, error: "boom" })],
      stepStarts: [start("a", 2)],
    });
    expect(res.ok).toBe(true);
    expect(await rows(runId)).toMatchObject([
      { nodeId: "a", attempt: 2, status: "running", output: null, error: null, finishedAt: null, promptTokens: 0 },
    ]);
  });

  it("refuses a result whose row is not running under this owner and attempt, and writes nothing", async () => {
    const { runId, version } = await claimed();
    expect(
      (
        await store.commit(runId, {
          owner: "w",
          expectedVersion: version,
          stepStarts: [start("a")],
          events: [runStarted()],
        })
      ).ok,
    ).toBe(true);
    const before = storeStats().rejectedCommits;
    const bad: RunCommit = {
      owner: "w",
      expectedVersion: version + 1,
      stepResults: [result("a", 2)],
      stepStarts: [start("b")],
      run: { status: "failed", reason: "x" },
      events: [{ type: "run_finished", status: "failed", reason: "x" }],
    };
    expect(await store.commit(runId, bad)).toMatchObject({
      ok: false,
      reason: "lost_lease",
      detail: expect.stringContaining("step a#1 attempt 2"),
    });
    expect(storeStats().rejectedCommits).toBe(before + 1);
    expect(await rows(runId)).toMatchObject([{ nodeId: "a", status: "running" }]);
    expect(await seqs(runId)).toEqual(["1:run_started"]);
    expect(await db().run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "queued",
      version: version + 1,
      nextSeq: 2,
    });
  });

  it("one result or several: each must hit its own row (whole key) running under this owner, waiting under anyone, or be a cancel", async () => {
    // a run with a running row of another worker ("b", as after a takeover), a waiting review of anyone and this worker's rows
    const setUp = async () => {
      const { runId, version } = await claimed();
      expect(
        (
          await store.commit(runId, {
            owner: "w",
            expectedVersion: version,
            stepStarts: [start("a"), start("c"), start("d")],
          })
        ).ok,
      ).toBe(true);
      await db().step.updateMany({ where: { runId, nodeId: "c" }, data: { leaseOwner: "b" } });
      await db().step.updateMany({ where: { runId, nodeId: "d" }, data: { status: "waiting", leaseOwner: "b" } });
      return { runId, v: version + 1 };
    };
    const outcome = async (results: StepResultWrite[]) => {
      const { runId, v } = await setUp();
      const res = await store.commit(runId, { owner: "w", expectedVersion: v, stepResults: results });
      return { ok: res.ok, rows: (await rows(runId)).map((r) => `${r.nodeId}:${r.status}`) };
    };
    // one result (bound as one object)
    expect(await outcome([result("a")])).toEqual({ ok: true, rows: ["a:succeeded", "c:running", "d:waiting"] });
    expect(await outcome([result("d", 1, { branch: "approve" })])).toMatchObject({
      ok: true,
      rows: ["a:running", "c:running", "d:succeeded"],
    });
    expect(await outcome([result("c", 1, { status: "cancelled", output: null })])).toMatchObject({
      ok: true,
      rows: ["a:running", "c:cancelled", "d:waiting"],
    });
    expect(await outcome([result("c")])).toMatchObject({ ok: false, rows: ["a:running", "c:running", "d:waiting"] });
    expect(await outcome([result("a", 2)])).toMatchObject({ ok: false, rows: ["a:running", "c:running", "d:waiting"] });
    expect(await outcome([{ ...result("a"), iteration: 2 }])).toMatchObject({ ok: false });
    // several (a set joined with the rows): all or nothing
    expect(await outcome([result("a"), result("d")])).toMatchObject({
      ok: true,
      rows: ["a:succeeded", "c:running", "d:succeeded"],
    });
    expect(await outcome([result("a"), result("c")])).toMatchObject({
      ok: false,
      rows: ["a:running", "c:running", "d:waiting"],
    });
  });

  it("a commit with several results or skips reads only their rows, however long the run (each looked up by key, generic plan or not)", async () => {
    const { runId, version } = await claimed();
    // a long run: 400 finished rows, then two running branches (a, b)
    const old = Array.from({ length: 400 }, (_, i) => start(`old${i}`));
    expect((await store.commit(runId, { owner: "w", expectedVersion: version, stepStarts: old })).ok).toBe(true);
    expect(
      (await store.commit(runId, { owner: "w", expectedVersion: version + 1, stepStarts: [start("a"), start("b")] }))
        .ok,
    ).toBe(true);
    const skipOf = (nodeId: string) => ({ nodeId, iteration: 1, kind: "agent", at: at() });
    const commit: RunCommit = {
      owner: "w",
      expectedVersion: version + 2,
      stepResults: [result("a"), result("b")],
      stepSkips: [skipOf("x"), skipOf("y")],
      run: { plannerState: { n: 3 } },
    };
    const built = commitQuery(runId, commit)!;
    expect(built.query.text).toContain("jsonb_to_recordset"); // the set statements, not the one-result ones
    type PlanNode = {
      "Relation Name"?: string;
      "Actual Rows": number;
      "Actual Loops": number;
      "Node Type": string;
      Plans?: PlanNode[];
    };
    const stepRowsRead = (n: PlanNode): number =>
      (n["Relation Name"] === "Step" && /Scan/.test(n["Node Type"]) ? n["Actual Rows"] * n["Actual Loops"] : 0) +
      (n.Plans ?? []).reduce((sum, c) => sum + stepRowsRead(c), 0);
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      // the statement prepared as the run store prepares it, its plan read under either plan cache mode
      // (a generic plan is what a pooled connection settles on after a few executions)
      const args = built.query.values
        .map((v) => (typeof v === "number" ? String(v) : client.escapeLiteral(String(v))))
        .join(", ");
      await client.query(`PREPARE fan_in AS ${built.query.text}`);
      for (const mode of ["force_custom_plan", "force_generic_plan"]) {
        await client.query("BEGIN");
        await client.query(`SET LOCAL plan_cache_mode = ${mode}`);
        const explained = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE fan_in(${args})`)).rows[0][
          "QUERY PLAN"
        ][0];
        await client.query("ROLLBACK");
        const plan = explained.Plan as PlanNode;
        expect(JSON.stringify(plan).includes("$1"), mode).toBe(mode === "force_generic_plan"); // the mode took effect
        // a and b are each read by the guard, the update's look-up and the update's fetch by id (3 × 2),
        // the skips' guard finds no row: not the run's 402 rows
        const read = stepRowsRead(plan);
        expect(read, mode).toBeGreaterThanOrEqual(4); // the guard and the update ran (the statement was not refused early)
        expect(read, mode).toBeLessThanOrEqual(6);
      }
    } finally {
      await client.end();
    }
    // and the commit itself still applies all of it
    expect((await store.commit(runId, commit)).ok).toBe(true);
    expect(
      (await rows(runId)).filter((r) => !r.nodeId.startsWith("old")).map((r) => `${r.nodeId}:${r.status}`),
    ).toEqual(["a:succeeded", "b:succeeded", "x:skipped", "y:skipped"]);
  });

  it("refuses a skip of an existing row as stale, and a stale version, writing nothing", async () => {
    const { runId, version } = await claimed();
    expect((await store.commit(runId, { owner: "w", expectedVersion: version, stepStarts: [start("a")] })).ok).toBe(
      true,
    );
    const skip = await store.commit(runId, {
      owner: "w",
      expectedVersion: version + 1,
      stepSkips: [{ nodeId: "a", iteration: 1, kind: "agent", at: at() }],
      events: [runStarted()],
    });
    expect(skip).toMatchObject({ ok: false, reason: "stale" });
    expect(await store.commit(runId, { owner: "w", expectedVersion: version, events: [runStarted()] })).toMatchObject({
      ok: false,
      reason: "stale",
      detail: expect.stringContaining("version is"),
    });
    expect(await store.commit(runId, { owner: "other", expectedVersion: version + 1 })).toMatchObject({
      ok: false,
      reason: "lost_lease",
    });
    expect(await seqs(runId)).toEqual([]);
    const skipped = await store.commit(runId, {
      owner: "w",
      expectedVersion: version + 1,
      stepSkips: [{ nodeId: "b", iteration: 1, kind: "agent", at: at() }],
    });
    expect(skipped.ok).toBe(true);
    expect(await rows(runId)).toMatchObject([
      { nodeId: "a", status: "running" },
      { nodeId: "b", status: "skipped", leaseOwner: "w", finishedAt: at() },
    ]);
    // several skips (a set) are refused together when any of them exists, written together otherwise
    const skipOf = (nodeId: string) => ({ nodeId, iteration: 1, kind: "agent", at: at() });
    expect(
      await store.commit(runId, { owner: "w", expectedVersion: version + 2, stepSkips: [skipOf("c"), skipOf("b")] }),
    ).toMatchObject({ ok: false, reason: "stale" });
    expect(
      (await store.commit(runId, { owner: "w", expectedVersion: version + 2, stepSkips: [skipOf("c"), skipOf("d")] }))
        .ok,
    ).toBe(true);
    expect((await rows(runId)).map((r) => `${r.nodeId}:${r.status}`)).toEqual([
      "a:running",
      "b:skipped",
      "c:skipped",
      "d:skipped",
    ]);
  });

  it("a commit one statement cannot express (a row started twice) takes the transactional path with the same result", async () => {
    const { runId, version } = await claimed();
    const res = await store.commit(runId, {
      owner: "w",
      expectedVersion: version,
      stepStarts: [start("a"), start("a", 2)],
      events: [runStarted()],
    });
    expect(res).toMatchObject({ ok: true, version: version + 1, events: [{ seq: 1 }] });
    expect(await rows(runId)).toMatchObject([{ nodeId: "a", attempt: 2, status: "running" }]);
  });

  it("concurrent commits of one run: exactly one wins each version, seqs stay contiguous", async () => {
    const { runId, version } = await claimed();
    let v = version;
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        [0, 1, 2].map((i) =>
          store.commit(runId, { owner: "w", expectedVersion: v, events: [runStarted({ round, i }), runStarted()] }),
        ),
      );
      expect(answers.filter((a) => a.ok)).toHaveLength(1);
      v += 1;
    }
    expect((await seqs(runId)).map((s) => Number(s.split(":")[0]))).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
  });
});

describe("claim", () => {
  it("one statement: the snapshot names the new holder and carries the run's cancel request", async () => {
    const { runId, version } = await claimed("old");
    await store.requestCancel(runId, "stop it");
    const sent = storeStats().sqlStatements;
    const c = await store.claimRun(runId, "new");
    if (!c.ok) throw new Error("claim failed");
    expect(c.run).toMatchObject({
      version: version + 1,
      leaseOwner: "new",
      cancelRequested: true,
      cancelReason: "stop it",
      status: "queued",
    });
    expect(storeStats().sqlStatements).toBe(sent + 1);
  });

  it("a claim that waited for a commit landing meanwhile sees what that commit wrote", async () => {
    const { runId, version } = await claimed("old");
    // the old holder's commit, held open so that the claim below starts, then waits for the Run row lock
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(`UPDATE "Run" SET version = version + 1, status = 'running' WHERE id = $1`, [runId]);
      await other.query(
        `INSERT INTO "Step" (id, "runId", "nodeId", iteration, attempt, status, "startedAt", "leaseOwner") VALUES ($1, $2, 'a', 1, 1, 'running', now(), 'old')`,
        [randomUUID(), runId],
      );
      const claim = store.claimRun(runId, "new");
      await untilSomeoneWaitsForALock(other);
      await other.query("COMMIT");
      const c = await claim;
      if (!c.ok) throw new Error("claim failed");
      expect(c.run.version).toBe(version + 2);
      expect(c.run.status).toBe("running");
      expect(c.run.steps.map((s) => s.nodeId)).toEqual(["a"]);
    } finally {
      await other.end();
    }
  });
});
