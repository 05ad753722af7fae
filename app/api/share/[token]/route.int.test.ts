import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as ownerEventsGET } from "@/app/api/runs/[id]/events/route";
import { GET as listLinksGET, POST as createLinkPOST } from "@/app/api/runs/[id]/share/route";
import { DELETE as revokeDELETE } from "@/app/api/runs/[id]/share/[linkId]/route";
import { db } from "@/lib/db/client";
import { hashShareToken } from "@/lib/db/share-links";
import { markPeerStampActive, PEER_HEADER } from "@/lib/net/client-address";
import { resetEnvCache } from "@/lib/env";
import { closeRunEventHub } from "@/lib/events/hub";
import { appendTestEvents } from "@/lib/events/testing/append";
import { SseParser } from "@/lib/events/testing/sse";
import { closeApiRedis } from "@/lib/queue";
import { createTestRun, createTestUser } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { GET as shareEventsGET } from "./events/route";
import { DELETE as shareDELETE, GET as shareGET, POST as sharePOST } from "./route";

useTestDatabase();
// the web server's stamp stands in: PEER_HEADER is the socket's address
markPeerStampActive();
const prefix = testQueuePrefix();
type User = Awaited<ReturnType<typeof createTestUser>>;
let alice: User;
let bob: User;
let ipCounter = 0;

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = prefix;
  process.env.WEFT_SSE_HEARTBEAT_MS = "500";
  resetEnvCache();
  alice = await createTestUser();
  bob = await createTestUser();
});

afterAll(async () => {
  await closeRunEventHub();
  await closeApiRedis();
});

/** A fresh client IP per request unless given, so the rate limit only bites where a test wants it. */
const ip = (fixed?: string) => ({ [PEER_HEADER]: fixed ?? `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });
const tokenCtx = (token: string) => ({ params: Promise.resolve({ token }) });
const runCtx = (id: string) => ({ params: Promise.resolve({ id }) });

async function createLink(runId: string, body: object, user = alice): Promise<Response> {
  return createLinkPOST(
    new Request(`http://localhost/api/runs/${runId}/share`, {
      method: "POST",
      headers: { ...user.auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    runCtx(runId),
  );
}

async function sharedRun(withContent: boolean): Promise<{ runId: string; token: string; linkId: string }> {
  const runId = await createTestRun(alice.id);
  await db().run.update({
    where: { id: runId },
    data: { inputs: { question: "SECRET-INPUT" }, outputs: { answer: "SECRET-OUTPUT" } },
  });
  await db().step.create({
    data: {
      runId,
      nodeId: "start",
      status: "succeeded",
      output: { text: "SECRET-STEP" },
      leaseOwner: "worker-x",
      input: { via: [] },
    },
  });
  await appendTestEvents(runId, [
    { type: "run_started", inputs: { question: "SECRET-INPUT" }, resumed: false, redispatched: [] },
    {
      type: "step_progress",
      nodeId: "start",
      iteration: 1,
      message: "called lookup",
      detail: { args: { q: "SECRET-ARGS" } },
    },
    {
      type: "step_finished",
      nodeId: "start",
      iteration: 1,
      status: "succeeded",
      output: { text: "SECRET-STEP" },
      promptTokens: 3,
      completionTokens: 4,
    },
  ]);
  const res = await createLink(runId, { expiresIn: "1h", includeContent: withContent });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { token: string; url: string; link: { id: string } };
  return { runId, token: body.token, linkId: body.link.id };
}

/** Reads SSE frames until `stop` says so or the stream ends; returns whether it ended by itself. */
async function readUntil(
  res: Response,
  stop: (data: string) => boolean,
  deadlineMs = 10_000,
): Promise<{ ended: boolean; data: string[] }> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  const data: string[] = [];
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const chunk = await Promise.race([
      reader.read(),
      new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now())),
    ]);
    if (chunk === null) break;
    if (chunk.done) return { ended: true, data };
    for (const f of parser.push(chunk.value)) {
      if (!f.event) data.push(f.data);
      if (stop(f.data)) {
        await reader.cancel();
        return { ended: false, data };
      }
    }
  }
  await reader.cancel().catch(() => undefined);
  return { ended: false, data };
}

describe("share links (W2)", () => {
  it("creates a 256-bit base64url token and stores only its SHA-256 hash", async () => {
    const { runId, token } = await sharedRun(false);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const rows = await db().shareLink.findMany({ where: { runId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(hashShareToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    const listed = await listLinksGET(
      new Request(`http://localhost/api/runs/${runId}/share`, { headers: alice.auth }),
      runCtx(runId),
    );
    expect(JSON.stringify(await listed.json())).not.toContain(token);
    const other = (await sharedRun(false)).token;
    expect(other).not.toBe(token);
  });

  it("returns exactly the allow-listed keys, without content unless included, with the share headers", async () => {
    const { runId, token } = await sharedRun(false);
    const res = await shareGET(new Request(`http://localhost/api/share/${token}`, { headers: ip() }), tokenCtx(token));
    expect(res.status).toBe(200);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-robots-tag")).toContain("noindex");
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = (await res.json()) as Record<string, Record<string, unknown> & { nodes?: object[] }>;
    expect(Object.keys(body).sort()).toEqual(["expiresAt", "graph", "includeContent", "run", "steps"]);
    expect(Object.keys(body.run!).sort()).toEqual([
      "completionTokens",
      "createdAt",
      "finishedAt",
      "id",
      "promptTokens",
      "reason",
      "startedAt",
      "status",
      "stepCount",
      "trigger",
      "version",
      "workflowName",
    ]);
    expect(body.run!.id).toBe(runId);
    expect(Object.keys(body.graph!).sort()).toEqual(["agents", "defaultModel", "edges", "name", "nodes"]);
    expect(Object.keys(body.graph!.nodes![0]!).sort()).toEqual([
      "agent",
      "branches",
      "errorBranch",
      "id",
      "join",
      "name",
      "outputs",
      "position",
      "tool",
      "type",
    ]);
    const steps = body.steps as unknown as Record<string, unknown>[];
    expect(Object.keys(steps[0]!).sort()).toEqual([
      "attempt",
      "branch",
      "completionTokens",
      "error",
      "finishedAt",
      "iteration",
      "latencyMs",
      "nodeId",
      "promptTokens",
      "startedAt",
      "status",
    ]);
    const text = JSON.stringify(body);
    for (const secret of ["SECRET", alice.id, "worker-x", "workspaceId", "leaseOwner", "tokenHash"])
      expect(text).not.toContain(secret);
  });

  it("includes prompts/outputs only when the link says so", async () => {
    const { token } = await sharedRun(true);
    const body = (await (
      await shareGET(new Request(`http://localhost/api/share/${token}`, { headers: ip() }), tokenCtx(token))
    ).json()) as {
      run: Record<string, unknown>;
      steps: Record<string, unknown>[];
    };
    expect(body.run.inputs).toEqual({ question: "SECRET-INPUT" });
    expect(body.run.outputs).toEqual({ answer: "SECRET-OUTPUT" });
    expect(body.steps[0]?.output).toEqual({ text: "SECRET-STEP" });
  });

  it("streams allow-listed events: no content without includeContent", async () => {
    const { token } = await sharedRun(false);
    const res = await shareEventsGET(
      new Request(`http://localhost/api/share/${token}/events`, { headers: ip() }),
      tokenCtx(token),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const { data } = await readUntil(res, (d) => d.includes("step_finished"));
    // run_started and step_finished; the step's activity (step_progress) is content, left out
    expect(data.map((d) => (JSON.parse(d) as { event: { type: string } }).event.type)).toEqual([
      "run_started",
      "step_finished",
    ]);
    expect(data.join("\n")).not.toContain("SECRET");
    expect(data.join("\n")).not.toContain(alice.id);
  });

  it("is read-only: mutations with the token are refused", async () => {
    const { runId, token, linkId } = await sharedRun(false);
    for (const handler of [sharePOST, shareDELETE]) {
      const res = await handler(new Request(`http://localhost/api/share/${token}`, { method: "POST", headers: ip() }));
      expect(res.status).toBe(405);
    }
    const revoke = await revokeDELETE(
      new Request(`http://localhost/api/runs/${runId}/share/${linkId}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}` },
      }),
      { params: Promise.resolve({ id: runId, linkId }) },
    );
    expect(revoke.status).toBe(401);
    const create = await createLinkPOST(
      new Request(`http://localhost/api/runs/${runId}/share`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: "{}",
      }),
      runCtx(runId),
    );
    expect(create.status).toBe(401);
    expect((await db().shareLink.findUniqueOrThrow({ where: { id: linkId } })).revokedAt).toBeNull();
    expect(await db().shareLink.count({ where: { runId } })).toBe(1);
  });

  it("honours expiry and revocation (404), and only the owner can create, list or revoke", async () => {
    const { runId, token, linkId } = await sharedRun(false);
    expect((await createLink(runId, {}, bob)).status).toBe(404);
    const bobList = await listLinksGET(
      new Request(`http://localhost/api/runs/${runId}/share`, { headers: bob.auth }),
      runCtx(runId),
    );
    expect(bobList.status).toBe(404);
    const bobRevoke = await revokeDELETE(
      new Request(`http://localhost/api/runs/${runId}/share/${linkId}`, { method: "DELETE", headers: bob.auth }),
      {
        params: Promise.resolve({ id: runId, linkId }),
      },
    );
    expect(bobRevoke.status).toBe(404);
    await db().shareLink.update({ where: { id: linkId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(
      (await shareGET(new Request(`http://localhost/api/share/${token}`, { headers: ip() }), tokenCtx(token))).status,
    ).toBe(404);
    expect(
      (
        await shareEventsGET(
          new Request(`http://localhost/api/share/${token}/events`, { headers: ip() }),
          tokenCtx(token),
        )
      ).status,
    ).toBe(404);
    const bad = "A".repeat(43);
    expect(
      (await shareGET(new Request(`http://localhost/api/share/${bad}`, { headers: ip() }), tokenCtx(bad))).status,
    ).toBe(404);
  });

  it("rate-limits share endpoints per IP with 429 and Retry-After", async () => {
    const { token } = await sharedRun(false);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 125; i++) {
      const res = await shareGET(
        new Request(`http://localhost/api/share/${token}`, { headers: ip("203.0.113.7") }),
        tokenCtx(token),
      );
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("retry-after");
    }
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it("finding 6: a spoofed X-Forwarded-For does not give a client a fresh share rate limit", async () => {
    const { token } = await sharedRun(false);
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++) {
      const headers = { ...ip("203.0.113.8"), "x-forwarded-for": `198.51.100.${i % 250}` };
      statuses.push(
        (await shareGET(new Request(`http://localhost/api/share/${token}`, { headers }), tokenCtx(token))).status,
      );
    }
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("S4", () => {
  it("another user's run stream answers 404", async () => {
    const runId = await createTestRun(alice.id);
    const res = await ownerEventsGET(
      new Request(`http://localhost/api/runs/${runId}/events`, { headers: bob.auth }),
      runCtx(runId),
    );
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("run_started");
  });

  it("a revoked link closes its open streams within 5 s", async () => {
    const { runId, token, linkId } = await sharedRun(false);
    const open = await Promise.all(
      [0, 1, 2].map(() =>
        shareEventsGET(new Request(`http://localhost/api/share/${token}/events`, { headers: ip() }), tokenCtx(token)),
      ),
    );
    const revokedAt = Date.now();
    const revoke = await revokeDELETE(
      new Request(`http://localhost/api/runs/${runId}/share/${linkId}`, { method: "DELETE", headers: alice.auth }),
      {
        params: Promise.resolve({ id: runId, linkId }),
      },
    );
    expect(revoke.status).toBe(204);
    const results = await Promise.all(open.map((res) => readUntil(res, () => false, 8_000)));
    const elapsed = Date.now() - revokedAt;
    expect(results.every((r) => r.ended)).toBe(true);
    expect(elapsed).toBeLessThan(5_000);
  });
});
