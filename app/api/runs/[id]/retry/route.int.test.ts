import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { createTestRun, createTestUser } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { POST as FORK } from "../fork/route";
import { POST as RETRY } from "./route";

/** POST /api/runs/:id/retry and /fork: who may, which runs and steps, what is refused (no worker runs here). */
useTestDatabase();
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;

const doc: WorkflowInput = {
  agents: [{ key: "w", name: "W" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "a", type: "agent", agent: "w", task: "go" },
    { id: "end", type: "end" },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "a" },
    { id: "e2", source: "a", sourceHandle: "done", target: "end" },
  ],
};
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (url: string, body: unknown, auth: Record<string, string>) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...auth },
    body: JSON.stringify(body),
  });

/** A run of `doc` in `status` whose start step succeeded and whose agent step is `aStatus`. */
async function runWith(status: "failed" | "succeeded", aStatus: "failed" | "running" | "succeeded") {
  const id = await createTestRun(alice.id, status, doc);
  const at = new Date();
  await db().step.createMany({
    data: [
      {
        runId: id,
        nodeId: "start",
        iteration: 1,
        status: "succeeded",
        input: { via: [] },
        output: {},
        branch: "next",
        startedAt: at,
        finishedAt: at,
      },
      {
        runId: id,
        nodeId: "a",
        iteration: 1,
        status: aStatus,
        input: { via: ["e1"] },
        output: aStatus === "succeeded" ? "A" : undefined,
        branch: aStatus === "succeeded" ? "done" : null,
        startedAt: at,
      },
    ],
  });
  return id;
}

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

describe("POST /api/runs/:id/retry", () => {
  it("starts a linked run that reuses the succeeded steps (201, Location), for the owner only", async () => {
    const source = await runWith("failed", "failed");
    expect((await RETRY(post(`/api/runs/${source}/retry`, {}, bob.auth), ctx(source))).status).toBe(404);
    const res = await RETRY(post(`/api/runs/${source}/retry`, { version: "original" }, alice.auth), ctx(source));
    expect(res.status).toBe(201);
    const body = (await res.json()) as {
      run: { id: string; sourceRunId: string };
      reuse: { reusable: number; runsFrom: string[] };
    };
    expect(res.headers.get("location")).toBe(`/api/runs/${body.run.id}`);
    expect(body).toMatchObject({
      run: { sourceRunId: source },
      reuse: { reusable: 1, changedNodes: [], runsFrom: ["a"] },
    });
    const row = await db().run.findUniqueOrThrow({
      where: { id: body.run.id },
      select: { trigger: true, sourceRunId: true, seed: true, status: true },
    });
    expect(row).toMatchObject({
      trigger: "retry",
      sourceRunId: source,
      status: "queued",
      seed: { runId: source, steps: { "start#1": { output: {}, branch: "next" } } },
    });
  });

  it("with the current version: the nodes changed since run again (named in the answer, left out of the seed)", async () => {
    const source = await runWith("failed", "failed");
    const { workflowVersion } = await db().run.findUniqueOrThrow({
      where: { id: source },
      select: { workflowVersion: { select: { workflowId: true } } },
    });
    const edited = {
      ...doc,
      nodes: doc.nodes!.map((n) => (n.id === "start" ? { ...n, name: "Renamed only" } : n)),
      agents: [{ key: "w", name: "W", instructions: "Be brief." }],
    };
    await db().workflow.update({
      where: { id: workflowVersion.workflowId },
      data: { draft: edited as Prisma.InputJsonValue },
    });
    const res = await RETRY(post(`/api/runs/${source}/retry`, { version: "current" }, alice.auth), ctx(source));
    expect(res.status).toBe(201);
    const body = (await res.json()) as {
      run: { id: string };
      reuse: { changedNodes: string[]; reusable: number; runsFrom: string[] };
    };
    // a renamed start is unchanged; the agent's instructions changed, so its node runs again
    expect(body.reuse).toEqual({ reusable: 1, changedNodes: ["a"], runsFrom: ["a"] });
    const run = await db().run.findUniqueOrThrow({
      where: { id: body.run.id },
      select: { workflowVersion: { select: { version: true } } },
    });
    expect(run.workflowVersion.version).toBe(2);
  });

  it("refuses a run that succeeded (409) and a body that does not parse (400)", async () => {
    const done = await runWith("succeeded", "succeeded");
    expect((await RETRY(post(`/api/runs/${done}/retry`, {}, alice.auth), ctx(done))).status).toBe(409);
    const failed = await runWith("failed", "failed");
    expect(
      (await RETRY(post(`/api/runs/${failed}/retry`, { version: "yesterday" }, alice.auth), ctx(failed))).status,
    ).toBe(400);
    expect(await db().run.count({ where: { sourceRunId: { in: [done, failed] } } })).toBe(0);
  });
});

describe("POST /api/runs/:id/fork", () => {
  it("forks at a step with an edited output; the seed holds the edit", async () => {
    const source = await runWith("succeeded", "succeeded");
    expect(
      (await FORK(post(`/api/runs/${source}/fork`, { nodeId: "a", output: "B" }, bob.auth), ctx(source))).status,
    ).toBe(404);
    const res = await FORK(
      post(`/api/runs/${source}/fork`, { nodeId: "a", output: { edited: true } }, alice.auth),
      ctx(source),
    );
    expect(res.status).toBe(201);
    const { run } = (await res.json()) as { run: { id: string } };
    const row = await db().run.findUniqueOrThrow({
      where: { id: run.id },
      select: { trigger: true, sourceNodeId: true, sourceIteration: true, seed: true },
    });
    expect(row).toMatchObject({
      trigger: "fork",
      sourceNodeId: "a",
      sourceIteration: 1,
      seed: { steps: { "a#1": { output: { edited: true }, branch: "done", edited: true } } },
    });
  });

  it("refuses a step that has not ended (409), an unknown step (404), an unknown outcome and a bad body (400)", async () => {
    const running = await runWith("failed", "running");
    expect(
      (await FORK(post(`/api/runs/${running}/fork`, { nodeId: "a", output: 1 }, alice.auth), ctx(running))).status,
    ).toBe(409);
    expect((await FORK(post(`/api/runs/${running}/fork`, { nodeId: "zzz" }, alice.auth), ctx(running))).status).toBe(
      404,
    );
    const done = await runWith("succeeded", "succeeded");
    const wrong = await FORK(
      post(`/api/runs/${done}/fork`, { nodeId: "a", output: 1, branch: "nope" }, alice.auth),
      ctx(done),
    );
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toContain("one of done");
    expect(
      (await FORK(post(`/api/runs/${done}/fork`, { nodeId: "a", iteration: 0 }, alice.auth), ctx(done))).status,
    ).toBe(400);
    expect(await db().run.count({ where: { sourceRunId: { in: [running, done] } } })).toBe(0);
  });
});
