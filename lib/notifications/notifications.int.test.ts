import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { deliveriesOfRun } from "@/lib/db/deliveries";
import { resetEnvCache } from "@/lib/env";
import { startRun } from "@/lib/runs/service";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { waitFor, waitTerminal } from "@/test/helpers/worker";
import { closeNotificationsQueue } from "@/lib/queue";
import { answerStep } from "@/lib/runs/answers";
import { sweepNotifications } from "./outbox";
import {
  createNotifier,
  deleteNotifier,
  notifiersOf,
  pauseNotifier,
  pingNotifier,
  redeliver,
  updateNotifier,
} from "./service";
import { SIGNATURE_HEADER, verifySignature } from "./signature";

/**
 * Run notifications end to end: a real worker process ends runs and POSTs them, signed, to a
 * receiver on this host (WEFT_NOTIFY_ALLOW_PRIVATE, as a self-hosted install would set), retried
 * with backoff through BullMQ; the outbox rows in PostgreSQL say what happened.
 */
const rt = useWorkerRuntime({
  workerEnv: { WEFT_NOTIFY_ALLOW_PRIVATE: "true", WEFT_NOTIFY_ATTEMPTS: "3", WEFT_NOTIFY_BACKOFF_MS: "50" },
});

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
const script = new Map<string, number[]>();
let receiver: http.Server;
let base = "";

const quick: WorkflowInput = {
  name: "Quick",
  outputs: [{ key: "done", type: "string" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end", outputs: { done: "yes" } },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};
/** An expression router whose first branch always holds: the run ends at the abort node. */
const aborting: WorkflowInput = {
  name: "Aborting",
  nodes: [
    { id: "start", type: "start" },
    {
      id: "check",
      type: "router",
      mode: "expression",
      branches: [
        { id: "stop", expression: "true" },
        { id: "go", default: true },
      ],
    },
    { id: "stop", type: "abort", reason: "Nothing to do" },
    { id: "end", type: "end" },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "check" },
    { id: "e2", source: "check", sourceHandle: "stop", target: "stop" },
    { id: "e3", source: "check", sourceHandle: "go", target: "end" },
  ],
};

/** A run that waits for a person's choice right after its start. */
const reviewed: WorkflowInput = {
  name: "Reviewed",
  nodes: [
    { id: "start", type: "start" },
    {
      id: "review",
      type: "human",
      prompt: "Go ahead with run {{inputs.label}}?",
      branches: [
        { id: "go", label: "Go" },
        { id: "stop", label: "Stop" },
      ],
    },
    { id: "end", type: "end" },
    { id: "halt", type: "abort", reason: "Stopped" },
  ],
  inputs: [{ key: "label", type: "string", required: false }],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "review" },
    { id: "e2", source: "review", sourceHandle: "go", target: "end" },
    { id: "e3", source: "review", sourceHandle: "stop", target: "halt" },
  ],
};

const hits = (path: string) => received.filter((r) => r.path === path);
const deliveriesOf = (notifierId: string) =>
  db().notificationDelivery.findMany({ where: { notifierId }, orderBy: { createdAt: "asc" } });
async function runToEnd(workflowId: string) {
  const { run } = await startRun(rt.workspaceId, workflowId, {});
  return waitTerminal(run.id);
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const planned = script.get(path);
      res.writeHead(planned?.shift() ?? 200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  process.env.WEFT_NOTIFY_ALLOW_PRIVATE = "true";
  resetEnvCache();
});
afterAll(async () => {
  await closeNotificationsQueue();
  await new Promise<void>((r) => receiver.close(() => r()));
  delete process.env.WEFT_NOTIFY_ALLOW_PRIVATE;
  resetEnvCache();
});

describe("run notifications", () => {
  it("POSTs each ended run, signed, with its status, outputs and workflow; the delivery is recorded", async () => {
    const { workflowId } = await createTestWorkflow(rt.workspaceId, quick);
    const { notifier, secret } = await createNotifier(rt.workspaceId, workflowId, { url: `${base}/all` });
    expect(secret).toMatch(/^whsec_/);
    expect(notifier).toMatchObject({
      url: `${base}/all`,
      on: "all",
      secretLast4: secret.slice(-4),
      enabled: true,
      lastDelivery: null,
    });
    expect(JSON.stringify(await db().runNotifier.findUniqueOrThrow({ where: { id: notifier.id } }))).not.toContain(
      secret,
    );

    const run = await runToEnd(workflowId);
    const [hit] = await waitFor(async () => (hits("/all").length ? hits("/all") : null), 20_000, "the notification");
    expect(hit!.headers["x-weft-event"]).toBe("run.finished");
    expect(verifySignature(secret, hit!.headers[SIGNATURE_HEADER.toLowerCase()] as string, hit!.body)).toBe(true);
    expect(verifySignature("whsec_other", hit!.headers[SIGNATURE_HEADER.toLowerCase()] as string, hit!.body)).toBe(
      false,
    );
    const body = JSON.parse(hit!.body) as { event: string; deliveryId: string; run: Record<string, unknown> };
    expect(body).toMatchObject({
      event: "run.finished",
      run: {
        id: run.run.id,
        status: "succeeded",
        outputs: { done: "yes" },
        trigger: "manual",
        workflow: { id: workflowId, name: "Test workflow", version: 1 },
      },
    });
    expect(hit!.headers["x-weft-delivery"]).toBe(body.deliveryId);
    const [delivery] = await waitFor(
      async () => {
        const ds = await deliveriesOf(notifier.id);
        return ds[0]?.status === "delivered" ? ds : null;
      },
      10_000,
      "delivered",
    );
    expect(delivery).toMatchObject({ runId: run.run.id, attempts: 1, responseStatus: 200, error: null });
    // the run's page lists it for the owner only
    expect(await deliveriesOfRun(rt.workspaceId, run.run.id)).toMatchObject([
      { url: `${base}/all`, status: "delivered" },
    ]);
    expect(await deliveriesOfRun((await createTestUser()).id, run.run.id)).toEqual([]);
  }, 60_000);

  it("retries a receiver's 5xx with backoff until it takes the notification, and gives up at once on a 4xx", async () => {
    const { workflowId } = await createTestWorkflow(rt.workspaceId, quick);
    script.set("/flaky", [503, 502]);
    script.set("/gone", [410]);
    const flaky = await createNotifier(rt.workspaceId, workflowId, { url: `${base}/flaky` });
    const gone = await createNotifier(rt.workspaceId, workflowId, { url: `${base}/gone` });
    await runToEnd(workflowId);
    const settled = (id: string) =>
      waitFor(
        async () => {
          const [d] = await deliveriesOf(id);
          return d && d.status !== "pending" ? d : null;
        },
        20_000,
        "a settled delivery",
      );
    expect(await settled(flaky.notifier.id)).toMatchObject({ status: "delivered", attempts: 3, responseStatus: 200 });
    expect(new Set(hits("/flaky").map((h) => h.headers["x-weft-delivery"])).size).toBe(1);
    expect(hits("/flaky")).toHaveLength(3);
    expect(await settled(gone.notifier.id)).toMatchObject({
      status: "failed",
      attempts: 1,
      responseStatus: 410,
      error: expect.stringContaining("answered 410"),
    });
    expect(hits("/gone")).toHaveLength(1);
  }, 60_000);

  it("a failures-only notifier hears of an aborted run and not of a succeeded one; a paused or deleted one hears of nothing", async () => {
    const good = await createTestWorkflow(rt.workspaceId, quick);
    const bad = await createTestWorkflow(rt.workspaceId, aborting);
    const onGood = await createNotifier(rt.workspaceId, good.workflowId, {
      url: `${base}/failures-good`,
      on: "failures",
    });
    const onBad = await createNotifier(rt.workspaceId, bad.workflowId, { url: `${base}/failures-bad`, on: "failures" });
    const paused = await createNotifier(rt.workspaceId, bad.workflowId, { url: `${base}/paused` });
    await pauseNotifier(rt.workspaceId, paused.notifier.id, true);
    const deleted = await createNotifier(rt.workspaceId, bad.workflowId, { url: `${base}/deleted` });
    await deleteNotifier(rt.workspaceId, deleted.notifier.id);

    expect((await runToEnd(good.workflowId)).run.status).toBe("succeeded");
    const aborted = await runToEnd(bad.workflowId);
    expect(aborted.run.status).toBe("aborted");
    const [hit] = await waitFor(
      async () => (hits("/failures-bad").length ? hits("/failures-bad") : null),
      20_000,
      "the failure notification",
    );
    expect(JSON.parse(hit!.body)).toMatchObject({
      run: { id: aborted.run.id, status: "aborted", reason: expect.stringContaining("Nothing to do") },
    });
    expect(await deliveriesOf(onGood.notifier.id)).toEqual([]);
    expect(await deliveriesOf(paused.notifier.id)).toEqual([]);
    // resumed, it listens from now on: the sweep does not send what ended while it was paused
    await pauseNotifier(rt.workspaceId, paused.notifier.id, false);
    await sweepNotifications();
    expect(await deliveriesOf(paused.notifier.id)).toEqual([]);
    expect(hits("/failures-good").length + hits("/paused").length + hits("/deleted").length).toBe(0);
    expect((await deliveriesOf(onBad.notifier.id))[0]?.runId).toBe(aborted.run.id);
  }, 60_000);

  it("the sweep catches a run that ended without its deliveries (a crash between the end and the outbox); creating them twice sends once", async () => {
    const { workflowId, versionId } = await createTestWorkflow(rt.workspaceId, quick);
    const { notifier } = await createNotifier(rt.workspaceId, workflowId, { url: `${base}/swept` });
    // a run that ended with nobody writing its deliveries
    const run = await db().run.create({
      data: {
        workspaceId: rt.workspaceId,
        workflowVersionId: versionId,
        status: "failed",
        reason: "crashed before notifying",
        finishedAt: new Date(),
      },
    });
    await sweepNotifications();
    await sweepNotifications();
    expect(await deliveriesOf(notifier.id)).toHaveLength(1);
    const [hit] = await waitFor(
      async () => (hits("/swept").length ? hits("/swept") : null),
      20_000,
      "the swept notification",
    );
    expect(JSON.parse(hit!.body)).toMatchObject({ run: { id: run.id, status: "failed" } });
    await new Promise((r) => setTimeout(r, 500));
    expect(hits("/swept")).toHaveLength(1);
    expect(await deliveriesOf(notifier.id)).toHaveLength(1);
  }, 60_000);

  it("a failed delivery can be sent again by its owner (not by anyone else); a pending one whose job was lost is sent by the sweep", async () => {
    const { workflowId, versionId } = await createTestWorkflow(rt.workspaceId, quick);
    script.set("/later", [410]);
    const { notifier } = await createNotifier(rt.workspaceId, workflowId, { url: `${base}/later` });
    await runToEnd(workflowId);
    const settled = () =>
      waitFor(
        async () => {
          const [d] = await deliveriesOf(notifier.id);
          return d && d.status !== "pending" ? d : null;
        },
        20_000,
        "a settled delivery",
      );
    const failed = await settled();
    expect(failed).toMatchObject({ status: "failed", responseStatus: 410, attempts: 1 });
    const intruder = await createTestUser();
    await expect(redeliver(intruder.id, failed.id)).rejects.toMatchObject({ code: "not_found" });
    await redeliver(rt.workspaceId, failed.id);
    expect(await settled()).toMatchObject({ status: "delivered", responseStatus: 200, attempts: 2, error: null });
    expect(hits("/later")).toHaveLength(2);
    expect((await notifiersOf(rt.workspaceId, workflowId))[0]?.recent.map((d) => d.id)).toEqual([failed.id]);

    // a delivery left pending with no job (Redis lost it): untouched for longer than every backoff, the sweep enqueues it afresh
    const lost = await createNotifier(rt.workspaceId, workflowId, { url: `${base}/lost` });
    // the run and its delivery in one transaction: the worker's own pass over ended runs must not see the run without it
    const row = await db().$transaction(async (tx) => {
      const run = await tx.run.create({
        data: {
          workspaceId: rt.workspaceId,
          workflowVersionId: versionId,
          status: "succeeded",
          finishedAt: new Date(),
        },
      });
      return tx.notificationDelivery.create({ data: { notifierId: lost.notifier.id, runId: run.id } });
    });
    await db()
      .$executeRaw`UPDATE "NotificationDelivery" SET "updatedAt" = now() - interval '2 hours', attempts = 1 WHERE id = ${row.id}`;
    // two sweeps at once (the worker's timer and this one) claim the row once between them
    await Promise.all([sweepNotifications(), sweepNotifications()]);
    await waitFor(
      async () => (await db().notificationDelivery.findUnique({ where: { id: row.id } }))?.status === "delivered",
      20_000,
      "the lost delivery sent",
    );
    expect(hits("/lost")).toHaveLength(1);
  }, 60_000);

  it("an edit moves a notifier to another URL or changes which endings it hears of; its secret stays", async () => {
    const { workflowId } = await createTestWorkflow(rt.workspaceId, quick);
    const { notifier, secret } = await createNotifier(rt.workspaceId, workflowId, { url: `${base}/before` });
    const edited = await updateNotifier(rt.workspaceId, workflowId, notifier.id, {
      url: `${base}/after`,
      on: "failures",
    });
    expect(edited).toMatchObject({
      id: notifier.id,
      url: `${base}/after`,
      on: "failures",
      secretLast4: secret.slice(-4),
    });
    expect(await pingNotifier(rt.workspaceId, notifier.id)).toMatchObject({ kind: "delivered" });
    const [hit] = hits("/after");
    expect(verifySignature(secret, hit!.headers[SIGNATURE_HEADER.toLowerCase()] as string, hit!.body)).toBe(true);
    await expect(
      updateNotifier(rt.workspaceId, workflowId, notifier.id, { url: "mailto:x@example.com" }),
    ).rejects.toMatchObject({ code: "bad_request", details: { field: "url" } });
    const intruder = await createTestUser();
    await expect(updateNotifier(intruder.id, workflowId, notifier.id, { url: `${base}/theirs` })).rejects.toMatchObject(
      { code: "not_found" },
    );
    expect((await notifiersOf(rt.workspaceId, workflowId))[0]?.url).toBe(`${base}/after`);
  });

  it("W1: another user can neither add to, see, test, pause nor delete someone's notification URLs", async () => {
    const { workflowId } = await createTestWorkflow(rt.workspaceId, quick);
    const { notifier } = await createNotifier(rt.workspaceId, workflowId, { url: `${base}/w1` });
    const intruder = await createTestUser();
    await expect(createNotifier(intruder.id, workflowId, { url: `${base}/theirs` })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await notifiersOf(intruder.id, workflowId)).toEqual([]);
    await expect(pingNotifier(intruder.id, notifier.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(pauseNotifier(intruder.id, notifier.id, true)).rejects.toMatchObject({ code: "not_found" });
    await expect(deleteNotifier(intruder.id, notifier.id)).rejects.toMatchObject({ code: "not_found" });
    expect(hits("/w1")).toHaveLength(0);
    expect(await notifiersOf(rt.workspaceId, workflowId)).toMatchObject([{ id: notifier.id, enabled: true }]);
  });

  it("tells every listening URL, failures-only ones too, when a run waits for a review, once per wait; the sweep catches up", async () => {
    const { workflowId } = await createTestWorkflow(rt.workspaceId, reviewed);
    const { notifier, secret } = await createNotifier(rt.workspaceId, workflowId, {
      url: `${base}/review`,
      on: "failures",
    });
    const { run } = await startRun(rt.workspaceId, workflowId, { inputs: { label: "A" } });
    const [hit] = await waitFor(
      async () => (hits("/review").length ? hits("/review") : null),
      20_000,
      "the waiting notification",
    );
    expect(hit!.headers["x-weft-event"]).toBe("run.waiting");
    expect(verifySignature(secret, hit!.headers[SIGNATURE_HEADER.toLowerCase()] as string, hit!.body)).toBe(true);
    const body = JSON.parse(hit!.body) as { event: string; run: Record<string, unknown>; reviews: unknown[] };
    expect(body).toMatchObject({
      event: "run.waiting",
      run: { id: run.id, status: "waiting", workflow: { id: workflowId } },
    });
    expect(body.run).not.toHaveProperty("outputs");
    expect(body.reviews).toEqual([
      {
        nodeId: "review",
        iteration: 1,
        prompt: "Go ahead with run A?",
        choices: [
          { id: "go", label: "Go" },
          { id: "stop", label: "Stop" },
        ],
        fields: [],
        answer: `/api/runs/${run.id}/answer`,
      },
    ]);
    const [delivery] = await waitFor(
      async () => {
        const ds = await deliveriesOf(notifier.id);
        return ds[0]?.status === "delivered" ? ds : null;
      },
      10_000,
      "delivered",
    );
    expect(delivery).toMatchObject({ event: "run.waiting", key: expect.stringMatching(/^waiting:\d{4}-/) });
    expect(await deliveriesOfRun(rt.workspaceId, run.id)).toMatchObject([
      { event: "run.waiting", status: "delivered" },
    ]);

    // a wait whose notification was never written (a crash after parking): the sweep writes and sends it
    await db().notificationDelivery.deleteMany({ where: { notifierId: notifier.id } });
    expect((await sweepNotifications()).created).toBeGreaterThanOrEqual(1);
    await waitFor(async () => (hits("/review").length === 2 ? true : null), 20_000, "the swept notification");
    expect((await sweepNotifications()).created).toBe(0);

    // answered, it succeeds: a failures-only URL hears nothing more
    await answerStep(rt.workspaceId, run.id, { nodeId: "review", choice: "go" }, "Ada");
    expect((await waitTerminal(run.id)).run.status).toBe("succeeded");
    await new Promise((r) => setTimeout(r, 500));
    expect(hits("/review")).toHaveLength(2);
  }, 60_000);

  it("a ping tests a receiver from the app, signed like a delivery; refusals and bad URLs are explained", async () => {
    const { workflowId } = await createTestWorkflow(rt.workspaceId, quick);
    const { notifier, secret } = await createNotifier(rt.workspaceId, workflowId, { url: `${base}/ping` });
    expect(await pingNotifier(rt.workspaceId, notifier.id)).toEqual({ kind: "delivered", responseStatus: 200 });
    const [hit] = hits("/ping");
    expect(hit!.headers["x-weft-event"]).toBe("ping");
    expect(verifySignature(secret, hit!.headers[SIGNATURE_HEADER.toLowerCase()] as string, hit!.body)).toBe(true);

    script.set("/ping", [404]);
    expect(await pingNotifier(rt.workspaceId, notifier.id)).toMatchObject({ kind: "rejected", responseStatus: 404 });
    await expect(createNotifier(rt.workspaceId, workflowId, { url: "ftp://example.com/x" })).rejects.toMatchObject({
      code: "bad_request",
      details: { field: "url" },
    });
    await expect(
      createNotifier(rt.workspaceId, workflowId, { url: "https://user:pw@example.com/x" }),
    ).rejects.toMatchObject({ code: "bad_request", message: "Leave credentials out of the URL" });

    process.env.WEFT_NOTIFY_ALLOW_PRIVATE = "false";
    resetEnvCache();
    try {
      expect(await pingNotifier(rt.workspaceId, notifier.id)).toMatchObject({
        kind: "rejected",
        error: expect.stringContaining("non-public address"),
      });
    } finally {
      process.env.WEFT_NOTIFY_ALLOW_PRIVATE = "true";
      resetEnvCache();
    }
  }, 60_000);
});
