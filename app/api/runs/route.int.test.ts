import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiToken, listApiTokens } from "@/lib/db/api-tokens";
import { db } from "@/lib/db/client";
import { closeApiRedis, closeRunsQueue, hasLiveRunJob, runsQueue } from "@/lib/queue";
import { resetEnvCache } from "@/lib/env";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { POST as START, GET as LIST_FOR_WORKFLOW } from "../workflows/[id]/runs/route";
import { POST as CANCEL } from "./[id]/cancel/route";
import { GET as DETAIL } from "./[id]/route";
import { GET as LIST } from "./route";

useTestDatabase();
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;

const withInput: WorkflowInput = {
  inputs: [{ key: "topic", type: "string" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end" },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  [alice, bob] = [await createTestUser(), await createTestUser()];
});
afterAll(async () => {
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeRunsQueue();
  await closeApiRedis();
  await closeRunLimiter();
});

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (url: string, body: unknown, headers: Record<string, string>) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const get = (url: string, headers: Record<string, string>) => new Request(`http://localhost${url}`, { headers });

describe("REST: runs", () => {
  it("starts a run (201, committed then enqueued), lists it and shows it to its owner only", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, withInput);
    const res = await START(
      post(`/api/workflows/${workflowId}/runs`, { inputs: { topic: "owls" } }, alice.auth),
      ctx(workflowId),
    );
    expect(res.status).toBe(201);
    const { run, dispatched } = (await res.json()) as {
      run: { id: string; status: string; inputs: unknown };
      dispatched: boolean;
    };
    // the API records its caller's token by name (createTestUser names it "test")
    expect(run).toMatchObject({
      status: "queued",
      inputs: { topic: "owls" },
      trigger: "api",
      triggerLabel: "token test",
    });
    expect(dispatched).toBe(true);
    expect(await hasLiveRunJob(run.id)).toBe(true);

    const list = (await (await LIST(get("/api/runs", alice.auth))).json()) as {
      runs: { id: string; trigger: string }[];
    };
    expect(list.runs.find((r) => r.id === run.id)).toMatchObject({ trigger: "api" });
    const byTrigger = async (t: string) =>
      ((await (await LIST(get(`/api/runs?trigger=${t}`, alice.auth))).json()) as { runs: { id: string }[] }).runs.map(
        (r) => r.id,
      );
    expect(await byTrigger("api")).toContain(run.id);
    expect(await byTrigger("schedule")).not.toContain(run.id);
    const perWorkflow = (await (
      await LIST_FOR_WORKFLOW(get(`/api/workflows/${workflowId}/runs`, alice.auth), ctx(workflowId))
    ).json()) as { runs: { id: string }[] };
    expect(perWorkflow.runs.map((r) => r.id)).toEqual([run.id]);
    expect((await DETAIL(get(`/api/runs/${run.id}`, alice.auth), ctx(run.id))).status).toBe(200);

    // W1: Bob sees nothing of Alice's
    const bobDetail = await DETAIL(get(`/api/runs/${run.id}`, bob.auth), ctx(run.id));
    expect(bobDetail.status).toBe(404);
    expect(JSON.stringify(await bobDetail.json())).not.toContain("owls");
    expect(
      ((await (await LIST(get("/api/runs", bob.auth))).json()) as { runs: { id: string }[] }).runs.map((r) => r.id),
    ).not.toContain(run.id);
    expect(
      (await START(post(`/api/workflows/${workflowId}/runs`, { inputs: { topic: "x" } }, bob.auth), ctx(workflowId)))
        .status,
    ).toBe(404);
    expect((await CANCEL(post(`/api/runs/${run.id}/cancel`, {}, bob.auth), ctx(run.id))).status).toBe(404);
  });

  it("an Idempotency-Key on the start answers the run it started before (200, replayed) instead of starting another", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, withInput);
    const start = () =>
      START(
        post(
          `/api/workflows/${workflowId}/runs`,
          { inputs: { topic: "owls" } },
          { ...alice.auth, "idempotency-key": "nightly-2026-12-02" },
        ),
        ctx(workflowId),
      );
    const first = await start();
    expect(first.status).toBe(201);
    const { run } = (await first.json()) as { run: { id: string } };
    const again = await start();
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toMatchObject({ run: { id: run.id }, replayed: true });
    // the key is the workflow's: the same key on another workflow starts that one
    const other = await createTestWorkflow(alice.id, withInput);
    const elsewhere = await START(
      post(
        `/api/workflows/${other.workflowId}/runs`,
        { inputs: { topic: "owls" } },
        { ...alice.auth, "idempotency-key": "nightly-2026-12-02" },
      ),
      ctx(other.workflowId),
    );
    expect(elsewhere.status).toBe(201);
  });

  it("refuses bad inputs (400 with paths) and an invalid workflow (422 with issues)", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, withInput);
    const bad = await START(
      post(`/api/workflows/${workflowId}/runs`, { inputs: { nope: 1 } }, alice.auth),
      ctx(workflowId),
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "bad_request" } });

    const broken = await createTestWorkflow(alice.id, withInput);
    await db().workflow.update({
      where: { id: broken.workflowId },
      data: { draft: { nodes: [{ id: "start", type: "start" }], edges: [] } },
    });
    const invalid = await START(
      post(`/api/workflows/${broken.workflowId}/runs`, {}, alice.auth),
      ctx(broken.workflowId),
    );
    expect(invalid.status).toBe(422);
    const body = (await invalid.json()) as { error: { code: string; details: { issues: { code: string }[] } } };
    expect(body.error.code).toBe("invalid_workflow");
    expect(body.error.details.issues.length).toBeGreaterThan(0);
  });

  it("cancels a queued run at once, with its run_finished event; cancelling again is a no-op", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, withInput);
    const started = (await (
      await START(post(`/api/workflows/${workflowId}/runs`, { inputs: { topic: "t" } }, alice.auth), ctx(workflowId))
    ).json()) as { run: { id: string } };
    const id = started.run.id;
    const res = await CANCEL(post(`/api/runs/${id}/cancel`, { reason: "changed my mind" }, alice.auth), ctx(id));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ run: { status: "cancelled", reason: "changed my mind" } });
    const again = await CANCEL(post(`/api/runs/${id}/cancel`, {}, alice.auth), ctx(id));
    expect(await again.json()).toMatchObject({ run: { status: "cancelled", reason: "changed my mind" } });
    const events = await db().runEvent.findMany({ where: { runId: id }, orderBy: { seq: "asc" } });
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, "cancel_requested"],
      [2, "run_finished"],
    ]);
  });

  it("W4: a cross-site or text/plain POST without a bearer token is refused; revoked tokens are unauthenticated", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, withInput);
    const crossSite = new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      body: JSON.stringify({ inputs: { topic: "x" } }),
    });
    expect([401, 403]).toContain((await START(crossSite, ctx(workflowId))).status);
    const viaToken = post(
      `/api/workflows/${workflowId}/runs`,
      { inputs: { topic: "x" } },
      { ...alice.auth, origin: "https://script.example" },
    );
    expect((await START(viaToken, ctx(workflowId))).status).toBe(201);

    const carol = await createTestUser();
    const [token] = await listApiTokens(carol.id, carol.id);
    expect(await revokeApiToken(carol.id, carol.id, token!.id)).toBe(true);
    expect((await LIST(get("/api/runs", carol.auth))).status).toBe(401);
  });

  it("D5: with Redis hanging, starting a run answers within 2 s (run committed, dispatched=false for the reconciler)", async () => {
    const sockets: Socket[] = [];
    const blackhole = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((r) => blackhole.listen(0, "127.0.0.1", () => r()));
    const port = (blackhole.address() as { port: number }).port;
    const saved = process.env.REDIS_URL;
    process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
    try {
      const { workflowId } = await createTestWorkflow(alice.id, withInput);
      const t0 = Date.now();
      const res = await START(
        post(`/api/workflows/${workflowId}/runs`, { inputs: { topic: "t" } }, alice.auth),
        ctx(workflowId),
      );
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect(res.status).toBe(201);
      const { run, dispatched } = (await res.json()) as { run: { id: string; status: string }; dispatched: boolean };
      expect(dispatched).toBe(false);
      expect(run.status).toBe("queued");
    } finally {
      if (saved === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = saved;
      await closeRunsQueue();
      await closeApiRedis();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => blackhole.close(() => r()));
    }
  });

  it("W6: starting runs is rate limited per user (429 with Retry-After), other users unaffected", async () => {
    process.env.WEFT_RUN_START_LIMIT = "3";
    resetEnvCache();
    try {
      const carol = await createTestUser();
      const { workflowId } = await createTestWorkflow(carol.id, withInput);
      const start = (who: typeof carol) =>
        START(post(`/api/workflows/${workflowId}/runs`, { inputs: { topic: "t" } }, who.auth), ctx(workflowId));
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await start(carol)).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      const limited = await start(carol);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
      expect(await db().run.count({ where: { workspaceId: carol.id } })).toBe(3);
      const { workflowId: bobsWorkflow } = await createTestWorkflow(bob.id, withInput);
      const bobStart = await START(
        post(`/api/workflows/${bobsWorkflow}/runs`, { inputs: { topic: "t" } }, bob.auth),
        ctx(bobsWorkflow),
      );
      expect(bobStart.status).toBe(201);
    } finally {
      delete process.env.WEFT_RUN_START_LIMIT;
      resetEnvCache();
    }
  });
});

describe("REST: bad input is a 4xx that stores nothing", () => {
  const raw = (url: string, body: string, headers: Record<string, string>) =>
    new Request(`http://localhost${url}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  it("finding 11: a NUL or an unpaired surrogate in run inputs answers 400 naming where, not 500", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, withInput);
    const before = await db().run.count();
    for (const [body, where] of [
      ['{"inputs":{"topic":"a\\u0000b"}}', "inputs.topic"],
      ['{"inputs":{"topic":"\\ud83d"}}', "inputs.topic"],
      ['{"inputs":{"\\udfff":"x"}}', "inputs"],
    ]) {
      const res = await START(raw(`/api/workflows/${workflowId}/runs`, body!, alice.auth), ctx(workflowId));
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(where);
    }
    expect(await db().run.count()).toBe(before);
  });

  it("finding 8: a body over the limit is refused 413 before it is read, a deep one 400, naming the limit", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, withInput);
    const before = await db().run.count();
    const big = await START(
      raw(
        `/api/workflows/${workflowId}/runs`,
        JSON.stringify({ inputs: { topic: "x".repeat(10 * 1_048_576) } }),
        alice.auth,
      ),
      ctx(workflowId),
    );
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { message: string } }).error.message).toContain("WEFT_JSON_MAX_BYTES");
    const deep = await START(
      raw(`/api/workflows/${workflowId}/runs`, `{"inputs":{"topic":${"[".repeat(200)}${"]".repeat(200)}}}`, alice.auth),
      ctx(workflowId),
    );
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { error: { message: string } }).error.message).toContain("WEFT_JSON_MAX_DEPTH");
    const plain = await START(
      new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
        method: "POST",
        headers: { ...alice.auth, "content-type": "text/plain" },
        body: "{}",
      }),
      ctx(workflowId),
    );
    expect(plain.status).toBe(415);
    expect(await db().run.count()).toBe(before);
  });
});
