import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { ToolCallRequest, ToolsPort } from "@/lib/engine/ports";
import { closeApiRedis } from "@/lib/queue";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { postgresStore, storeStats } from "./postgres-store";
import { createTestRun, createTestUser } from "@/test/fixtures";
import { ledgerStats, ledgerTools } from "@/lib/tools/ledger";

useTestDatabase();
let workspaceId = "";

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  workspaceId = (await createTestUser()).id;
});
afterAll(async () => {
  await closeApiRedis();
});

const at = () => new Date();

describe("postgresStore", () => {
  it("claims bump the version; a stale (zombie) worker's commit is rejected and changes nothing (D4)", async () => {
    const store = postgresStore();
    const runId = await createTestRun(workspaceId, "queued");
    const a = await store.claimRun(runId, "worker-a");
    if (!a.ok) throw new Error("claim failed");
    const started = await store.commit(runId, {
      owner: "worker-a",
      expectedVersion: a.run.version,
      stepStarts: [{ nodeId: "start", iteration: 1, attempt: 1, kind: "start", input: {}, at: at() }],
      run: { status: "running", startedAt: at() },
      events: [{ type: "step_started", nodeId: "start", iteration: 1, attempt: 1, kind: "start" }],
    });
    expect(started).toMatchObject({ ok: true, version: a.run.version + 1 });

    // worker B takes over (job re-delivered after A stalled)
    const b = await store.claimRun(runId, "worker-b");
    if (!b.ok) throw new Error("claim failed");
    expect(b.run.steps).toHaveLength(1);
    const rejectedBefore = storeStats().rejectedCommits;
    const late = await store.commit(runId, {
      owner: "worker-a",
      expectedVersion: started.ok ? started.version : -1,
      stepResults: [
        {
          nodeId: "start",
          iteration: 1,
          attempt: 1,
          status: "succeeded",
          output: { a: 1 },
          branch: "next",
          promptTokens: 0,
          completionTokens: 0,
          latencyMs: 1,
          error: null,
          at: at(),
        },
      ],
      events: [
        {
          type: "step_finished",
          nodeId: "start",
          iteration: 1,
          status: "succeeded",
          promptTokens: 0,
          completionTokens: 0,
        },
      ],
    });
    expect(late).toMatchObject({ ok: false, reason: "lost_lease" });
    expect(storeStats().rejectedCommits).toBe(rejectedBefore + 1);

    // B re-dispatches the step (attempt 2); A's step-level result for attempt 1 would also be refused
    const restarted = await store.commit(runId, {
      owner: "worker-b",
      expectedVersion: b.run.version,
      stepStarts: [{ nodeId: "start", iteration: 1, attempt: 2, kind: "start", input: {}, at: at() }],
    });
    expect(restarted.ok).toBe(true);
    const done = await store.commit(runId, {
      owner: "worker-b",
      expectedVersion: restarted.ok ? restarted.version : -1,
      stepResults: [
        {
          nodeId: "start",
          iteration: 1,
          attempt: 1,
          status: "succeeded",
          output: null,
          branch: null,
          promptTokens: 0,
          completionTokens: 0,
          latencyMs: 1,
          error: null,
          at: at(),
        },
      ],
    });
    expect(done).toMatchObject({ ok: false, reason: "lost_lease" });
    const step = await db().step.findFirstOrThrow({ where: { runId } });
    expect(step).toMatchObject({ attempt: 2, status: "running", leaseOwner: "worker-b" });
    const events = await db().runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(events.map((e) => e.seq)).toEqual([1]);
  });

  it("finishes a run atomically and then refuses claims and commits (terminal)", async () => {
    const store = postgresStore();
    const runId = await createTestRun(workspaceId, "queued");
    const c = await store.claimRun(runId, "w");
    if (!c.ok) throw new Error("claim failed");
    const fin = await store.commit(runId, {
      owner: "w",
      expectedVersion: c.run.version,
      run: {
        status: "succeeded",
        reason: "end reached",
        finishedAt: at(),
        outputs: { x: 1 },
        addTokens: { promptTokens: 3, completionTokens: 4 },
      },
      events: [{ type: "run_finished", status: "succeeded", reason: "end reached" }],
    });
    expect(fin.ok).toBe(true);
    expect(await store.claimRun(runId, "w2")).toEqual({ ok: false, reason: "terminal" });
    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: "succeeded", promptTokens: 3, completionTokens: 4, nextSeq: 2 });
  });

  it("a waiting review's row is closed by whoever holds the run next; a parked run cannot be claimed until woken", async () => {
    const store = postgresStore();
    const runId = await createTestRun(workspaceId, "queued");
    const a = await store.claimRun(runId, "worker-a");
    if (!a.ok) throw new Error("claim failed");
    const request = { prompt: "Go?", choices: [{ id: "go", label: "Go" }], fields: [] };
    const asked = await store.commit(runId, {
      owner: "worker-a",
      expectedVersion: a.run.version,
      stepStarts: [{ nodeId: "review", iteration: 1, attempt: 1, kind: "human", input: {}, at: at() }],
      stepResults: [
        {
          nodeId: "review",
          iteration: 1,
          attempt: 1,
          status: "waiting",
          output: { request },
          branch: null,
          promptTokens: 0,
          completionTokens: 0,
          latencyMs: null,
          error: null,
          at: at(),
        },
      ],
      run: { status: "running", startedAt: at() },
      events: [{ type: "input_requested", nodeId: "review", iteration: 1, ...request }],
    });
    if (!asked.ok) throw new Error("commit failed");
    expect(await db().step.findFirstOrThrow({ where: { runId, nodeId: "review" } })).toMatchObject({
      status: "waiting",
      finishedAt: null,
      leaseOwner: "worker-a",
      output: { request },
    });
    const parked = await store.commit(runId, {
      owner: "worker-a",
      expectedVersion: asked.version,
      run: { status: "waiting", waitingSince: at() },
      events: [{ type: "run_waiting", steps: [{ nodeId: "review", iteration: 1 }] }],
    });
    if (!parked.ok) throw new Error("park failed");
    await store.releaseRun(runId, "worker-a", parked.version);
    expect(await store.claimRun(runId, "worker-b")).toEqual({ ok: false, reason: "waiting" });
    expect(await store.readAnswers(runId)).toEqual([]);

    await db().step.updateMany({ where: { runId, nodeId: "review" }, data: { answer: { choice: "go", values: {} } } });
    await db().run.update({ where: { id: runId }, data: { status: "queued", waitingSince: null } });
    expect(await store.readAnswers(runId)).toEqual([
      { nodeId: "review", iteration: 1, answer: { choice: "go", values: {} } },
    ]);
    const b = await store.claimRun(runId, "worker-b");
    if (!b.ok) throw new Error("claim failed");
    expect(b.run.steps.find((s) => s.nodeId === "review")).toMatchObject({
      status: "waiting",
      answer: { choice: "go", values: {} },
    });
    const done = await store.commit(runId, {
      owner: "worker-b",
      expectedVersion: b.run.version,
      stepResults: [
        {
          nodeId: "review",
          iteration: 1,
          attempt: 1,
          status: "succeeded",
          output: { choice: "go" },
          branch: "go",
          promptTokens: 0,
          completionTokens: 0,
          latencyMs: 0,
          error: null,
          at: at(),
        },
      ],
      events: [
        {
          type: "step_finished",
          nodeId: "review",
          iteration: 1,
          status: "succeeded",
          branch: "go",
          promptTokens: 0,
          completionTokens: 0,
        },
      ],
    });
    expect(done.ok).toBe(true);
    expect(await db().step.findFirstOrThrow({ where: { runId, nodeId: "review" } })).toMatchObject({
      status: "succeeded",
      branch: "go",
      finishedAt: expect.any(Date),
    });
  });

  it("records cancel requests with their reason until the run ends", async () => {
    const store = postgresStore();
    const runId = await createTestRun(workspaceId, "running");
    await store.requestCancel(runId, "user asked");
    expect(await store.isCancelRequested(runId)).toEqual({ requested: true, reason: "user asked" });
  });
});

describe("ledgerTools", () => {
  it("executes a side effect once per idempotency key and replays the recorded result", async () => {
    const runId = await createTestRun(workspaceId, "running");
    let effects = 0;
    const inner: ToolsPort = {
      resolve: async () => null,
      call: async (r) => {
        effects++;
        await new Promise((res) => setTimeout(res, 50));
        return { ok: true, output: { sent: r.args.to, n: effects } };
      },
    };
    const tools = ledgerTools(inner);
    const req = (key?: string): ToolCallRequest => ({
      ref: { name: "send" },
      args: { to: "a@b.c" },
      runId,
      nodeId: "send",
      signal: new AbortController().signal,
      ...(key ? { idempotencyKey: key } : {}),
    });
    const before = ledgerStats();
    const results = await Promise.all([
      tools.call(req(`${runId}:send:1`)),
      tools.call(req(`${runId}:send:1`)),
      tools.call(req(`${runId}:send:1`)),
    ]);
    expect(effects).toBe(1);
    expect(results).toEqual(Array(3).fill({ ok: true, output: { sent: "a@b.c", n: 1 } }));
    expect(await tools.call(req(`${runId}:send:1`))).toEqual({ ok: true, output: { sent: "a@b.c", n: 1 } });
    expect(ledgerStats().replayed - before.replayed).toBe(3);
    await tools.call(req());
    expect(effects).toBe(2);
  });

  it("never repeats an effect whose first attempt died before recording (outcome unknown)", async () => {
    const runId = await createTestRun(workspaceId, "running");
    await db().toolEffect.create({ data: { key: `${runId}:x:1`, runId } });
    let effects = 0;
    const tools = ledgerTools({ resolve: async () => null, call: async () => ({ ok: true, output: ++effects }) }, 300);
    const r = await tools.call({
      ref: { name: "x" },
      args: {},
      runId,
      nodeId: "x",
      signal: new AbortController().signal,
      idempotencyKey: `${runId}:x:1`,
    });
    expect(effects).toBe(0);
    expect(r.ok).toBe(false);
  });
});
