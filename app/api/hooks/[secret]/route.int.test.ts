import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import {
  hashWebhookSecret,
  MAX_WEBHOOKS_PER_USER,
  recordWebhookCall,
  WEBHOOK_CALLS_KEPT,
  WEBHOOK_CALLS_SHOWN,
} from "@/lib/db/webhooks";
import { closeApiRedis, closeRunsQueue, hasLiveRunJob, runsQueue } from "@/lib/queue";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import {
  createWebhook,
  deleteWebhook,
  pauseWebhook,
  rotateWebhook,
  updateWebhook,
  webhooksOf,
} from "@/lib/webhooks/service";
import { WEBHOOK_MAX_BODY_BYTES, WEBHOOK_NO_SAVED_VERSION } from "@/lib/webhooks/receive";
import { workflowSchema, type WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { POST } from "./route";

/** Webhooks: a secret URL starts a run of the newest saved version (real PostgreSQL, Redis and BullMQ; no worker). */
useTestDatabase();
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;

const triage: WorkflowInput = {
  name: "Triage",
  inputs: [
    { key: "title", type: "string" },
    { key: "priority", type: "number", required: false },
    { key: "event", type: "json", required: false },
  ],
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end" },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};

const call = (secret: string, body: string, contentType: string | null = "application/json") =>
  POST(
    new Request(`http://localhost/api/hooks/${secret}`, {
      method: "POST",
      headers: contentType ? { "content-type": contentType } : {},
      body,
    }),
    { params: Promise.resolve({ secret }) },
  );
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string; details: unknown } }).error;
const hookRow = (id: string) => db().webhook.findUniqueOrThrow({ where: { id } });

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

describe("webhooks", () => {
  it("starts a run of the newest saved version from the body's fields (others ignored), recorded as the webhook's", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, triage);
    const { webhook, secret } = await createWebhook(alice.id, workflowId, { name: "  GitHub issues  " });
    expect(webhook).toMatchObject({
      name: "GitHub issues",
      inputMode: "fields",
      payloadField: null,
      enabled: true,
      lastFour: secret.slice(-4),
      lastRunId: null,
    });
    // only the hash is stored
    expect(JSON.stringify(await hookRow(webhook.id))).not.toContain(secret);
    expect((await hookRow(webhook.id)).secretHash).toBe(hashWebhookSecret(secret));

    const res = await call(
      secret,
      JSON.stringify({ title: "Login broken", priority: 2, action: "opened", sender: { login: "x" } }),
    );
    expect(res.status).toBe(202);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const accepted = (await res.json()) as { runId: string; status: string; dispatched: boolean };
    expect(accepted).toMatchObject({ status: "queued", dispatched: true });
    const run = await db().run.findUniqueOrThrow({
      where: { id: accepted.runId },
      include: { workflowVersion: { select: { version: true, workflowId: true } } },
    });
    expect(run).toMatchObject({
      workspaceId: alice.id,
      inputs: { title: "Login broken", priority: 2 },
      trigger: "webhook",
      triggerLabel: "GitHub issues",
      workflowVersion: { version: 1, workflowId },
    });
    expect(await hasLiveRunJob(accepted.runId)).toBe(true);
    const [shown] = await webhooksOf(alice.id, workflowId);
    expect(shown).toMatchObject({ lastRunId: accepted.runId, lastError: null });
    expect(shown?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("payload mode hands the whole body to one field; form bodies fill fields", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, triage);
    const { secret } = await createWebhook(alice.id, workflowId, {
      name: "Raw events",
      inputMode: "payload",
      payloadField: "event",
    });
    const event = { action: "opened", issue: { number: 7 } };
    const res = await call(secret, JSON.stringify(event));
    // the run needs its required "title": payload mode only fills "event", so startRun refuses and says which field
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({
      code: "bad_request",
      message: "The inputs do not match the workflow's input fields.",
    });

    const optional: WorkflowInput = { ...triage, inputs: [{ key: "event", type: "json" }] };
    const other = await createTestWorkflow(alice.id, optional);
    const hook = await createWebhook(alice.id, other.workflowId, {
      name: "Raw events",
      inputMode: "payload",
      payloadField: "event",
    });
    const ok = await call(hook.secret, JSON.stringify(event));
    expect(ok.status).toBe(202);
    const { runId } = (await ok.json()) as { runId: string };
    expect((await db().run.findUniqueOrThrow({ where: { id: runId } })).inputs).toEqual({ event });

    const form = await createWebhook(alice.id, workflowId, { name: "Form" });
    const posted = await call(form.secret, "title=From+a+form&priority=3&extra=1", "application/x-www-form-urlencoded");
    expect(posted.status).toBe(202);
    const formRun = (await posted.json()) as { runId: string };
    // numbers come as text from forms; startRun's input schema turns them into numbers
    expect((await db().run.findUniqueOrThrow({ where: { id: formRun.runId } })).inputs).toEqual({
      title: "From a form",
      priority: 3,
    });
  });

  it("refuses bad bodies, oversized bodies, paused hooks and workflows with no saved version, recording why, starting nothing", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, triage);
    const { webhook, secret } = await createWebhook(alice.id, workflowId, { name: "Strict" });
    const runs = () => db().run.count({ where: { workflowVersion: { workflowId } } });

    const broken = await call(secret, "{title:");
    expect(broken.status).toBe(400);
    expect((await errorOf(broken)).message).toMatch(/^The body is not valid JSON \(at character \d+\)\.$/);
    expect((await hookRow(webhook.id)).lastError).toMatch(/^The body is not valid JSON \(at character \d+\)\.$/);

    const wrongType = await call(secret, JSON.stringify({ title: "x", priority: "high" }));
    expect(wrongType.status).toBe(400);
    expect(JSON.stringify(await errorOf(wrongType))).toContain("priority");

    const text = await call(secret, "hello", "text/plain");
    expect(text.status).toBe(400);
    expect((await errorOf(text)).message).toContain("(title, priority, event)");

    const big = await call(secret, JSON.stringify({ title: "x".repeat(WEBHOOK_MAX_BODY_BYTES) }));
    expect(big.status).toBe(413);
    expect((await errorOf(big)).code).toBe("too_large");

    await pauseWebhook(alice.id, webhook.id, true);
    const paused = await call(secret, JSON.stringify({ title: "x" }));
    expect(paused.status).toBe(409);
    expect((await errorOf(paused)).message).toMatch(/paused/);
    await pauseWebhook(alice.id, webhook.id, false);
    expect(await runs()).toBe(0);

    const draftOnly = await db().workflow.create({
      data: { workspaceId: alice.id, name: "Draft only", draft: workflowSchema.parse(triage) as object },
    });
    const unsaved = await createWebhook(alice.id, draftOnly.id, { name: "Too early" });
    const early = await call(unsaved.secret, JSON.stringify({ title: "x" }));
    expect(early.status).toBe(409);
    expect((await errorOf(early)).message).toBe(WEBHOOK_NO_SAVED_VERSION);
    expect((await hookRow(unsaved.webhook.id)).lastError).toBe(WEBHOOK_NO_SAVED_VERSION);
    expect(await runs()).toBe(0);
  });

  it("logs each call with the status it was answered and its run or refusal, keeping the latest few", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, triage);
    const { webhook, secret } = await createWebhook(alice.id, workflowId, { name: "Logged" });
    const ok = (await (await call(secret, JSON.stringify({ title: "one" }))).json()) as { runId: string };
    await call(secret, "{broken");
    await pauseWebhook(alice.id, webhook.id, true);
    await call(secret, JSON.stringify({ title: "paused" }));
    await pauseWebhook(alice.id, webhook.id, false);
    const [shown] = await webhooksOf(alice.id, workflowId);
    expect(shown?.recent.map((c) => [c.status, c.runId, c.error])).toEqual([
      // a paused webhook's calls are answered 409 without touching its record: the owner paused it
      [400, null, expect.stringMatching(/^The body is not valid JSON/)],
      [202, ok.runId, null],
    ]);
    for (let i = 0; i < WEBHOOK_CALLS_KEPT + 5; i++)
      await recordWebhookCall(webhook.id, { status: 429, error: `limit ${i}` });
    expect(await db().webhookCall.count({ where: { webhookId: webhook.id } })).toBe(WEBHOOK_CALLS_KEPT);
    const [after] = await webhooksOf(alice.id, workflowId);
    expect(after?.recent).toHaveLength(WEBHOOK_CALLS_SHOWN);
    expect(after?.recent[0]).toMatchObject({ status: 429, error: `limit ${WEBHOOK_CALLS_KEPT + 4}` });
  });

  it("an Idempotency-Key makes a sender's retry answer the run the first call started; a bad key is refused", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, triage);
    const { secret } = await createWebhook(alice.id, workflowId, { name: "Retried" });
    const keyed = (key: string, title: string) =>
      POST(
        new Request(`http://localhost/api/hooks/${secret}`, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": key },
          body: JSON.stringify({ title }),
        }),
        { params: Promise.resolve({ secret }) },
      );
    const first = await keyed("evt-1", "first");
    expect(first.status).toBe(202);
    const { runId } = (await first.json()) as { runId: string };
    const retry = await keyed("evt-1", "first");
    expect(retry.status).toBe(202);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await retry.json()).toMatchObject({ runId, replayed: true });
    const other = (await (await keyed("evt-2", "second")).json()) as { runId: string };
    expect(other.runId).not.toBe(runId);
    expect(await db().run.count({ where: { workflowVersion: { workflowId } } })).toBe(2);
    expect((await keyed("has space", "x")).status).toBe(400);
    expect((await keyed("k".repeat(201), "x")).status).toBe(400);
  });

  it("an edit renames the webhook or changes its body handling and keeps its URL; not someone else's", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, triage);
    const { webhook, secret } = await createWebhook(alice.id, workflowId, { name: "Fields" });
    const edited = await updateWebhook(alice.id, workflowId, webhook.id, {
      name: "Raw",
      inputMode: "payload",
      payloadField: "event",
    });
    expect(edited).toMatchObject({
      id: webhook.id,
      name: "Raw",
      inputMode: "payload",
      payloadField: "event",
      lastFour: secret.slice(-4),
    });
    // title is required, so the payload-mode call is refused by startRun: it did read the body as one field
    const res = await call(secret, JSON.stringify({ title: "ignored as a field" }));
    expect(res.status).toBe(400);
    expect(JSON.stringify(await errorOf(res))).toContain("title");
    const back = await updateWebhook(alice.id, workflowId, webhook.id, { name: "Fields again" });
    expect(back).toMatchObject({ inputMode: "fields", payloadField: null });
    expect((await call(secret, JSON.stringify({ title: "now a field" }))).status).toBe(202);
    await expect(updateWebhook(bob.id, workflowId, webhook.id, { name: "Mine now" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      updateWebhook(alice.id, workflowId, webhook.id, { name: "P", inputMode: "payload", payloadField: "nope" }),
    ).rejects.toMatchObject({ details: { field: "payloadField" } });
    expect((await hookRow(webhook.id)).name).toBe("Fields again");
  });

  it("an unknown, malformed, rotated-away or deleted secret is a 404 that names nothing", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, triage);
    const { webhook, secret } = await createWebhook(alice.id, workflowId, { name: "Rotating" });
    for (const s of ["whk_nope", "not-a-secret", "x".repeat(500)]) {
      const res = await call(s, JSON.stringify({ title: "x" }));
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toEqual({ code: "not_found", message: "No webhook at this address.", details: null });
    }
    const rotated = await rotateWebhook(alice.id, webhook.id);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.webhook.lastFour).toBe(rotated.secret.slice(-4));
    expect((await call(secret, JSON.stringify({ title: "x" }))).status).toBe(404);
    expect((await call(rotated.secret, JSON.stringify({ title: "x" }))).status).toBe(202);
    await deleteWebhook(alice.id, webhook.id);
    expect((await call(rotated.secret, JSON.stringify({ title: "x" }))).status).toBe(404);
  });

  it("owners only: another user cannot add, see, pause, rotate or delete; a payload field must exist; the count is capped", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, triage);
    const { webhook } = await createWebhook(alice.id, workflowId, { name: "Mine" });
    await expect(createWebhook(bob.id, workflowId, { name: "Theirs" })).rejects.toMatchObject({ code: "not_found" });
    expect(await webhooksOf(bob.id, workflowId)).toEqual([]);
    await expect(pauseWebhook(bob.id, webhook.id, true)).rejects.toMatchObject({ code: "not_found" });
    await expect(rotateWebhook(bob.id, webhook.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(deleteWebhook(bob.id, webhook.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await hookRow(webhook.id)).enabled).toBe(true);

    await expect(createWebhook(alice.id, workflowId, { name: " " })).rejects.toMatchObject({
      code: "bad_request",
      details: { field: "name" },
    });
    await expect(createWebhook(alice.id, workflowId, { name: "P", inputMode: "payload" })).rejects.toMatchObject({
      code: "bad_request",
      details: { field: "payloadField" },
    });
    await expect(
      createWebhook(alice.id, workflowId, { name: "P", inputMode: "payload", payloadField: "body" }),
    ).rejects.toMatchObject({
      code: "bad_request",
      message: 'The workflow has no input field "body".',
      details: { field: "payloadField" },
    });

    const carol = await createTestUser();
    const own = await createTestWorkflow(carol.id, triage);
    await db().webhook.createMany({
      data: Array.from({ length: MAX_WEBHOOKS_PER_USER }, (_, i) => ({
        workspaceId: carol.id,
        workflowId: own.workflowId,
        name: `h${i}`,
        secretHash: `h-${carol.id}-${i}`,
        lastFour: "abcd",
      })),
    });
    await expect(createWebhook(carol.id, own.workflowId, { name: "One more" })).rejects.toMatchObject({
      code: "conflict",
    });
  });
});
