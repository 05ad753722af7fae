import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { closeApiRedis, closeRunsQueue, closeSchedulesQueue, listScheduleTimers } from "@/lib/queue";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { POST as NOTIFIER_ACTION } from "./notifiers/[itemId]/[action]/route";
import { GET as NOTIFIERS, POST as ADD_NOTIFIER } from "./notifiers/route";
import { POST as SCHEDULE_ACTION } from "./schedules/[itemId]/[action]/route";
import { DELETE as DELETE_SCHEDULE, PUT as PUT_SCHEDULE } from "./schedules/[itemId]/route";
import { GET as SCHEDULES, POST as ADD_SCHEDULE } from "./schedules/route";
import { POST as WEBHOOK_ACTION } from "./webhooks/[itemId]/[action]/route";
import { DELETE as DELETE_WEBHOOK, PUT as PUT_WEBHOOK } from "./webhooks/[itemId]/route";
import { GET as WEBHOOKS, POST as ADD_WEBHOOK } from "./webhooks/route";

/** A workflow's schedules, webhooks and notification URLs over REST (real PostgreSQL and Redis; the routes called in process). */
useTestDatabase();
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;
let receiver: http.Server;
let hookUrl = "";
const pings: string[] = [];

const flow: WorkflowInput = {
  name: "Digest",
  inputs: [{ key: "topic", type: "string" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end" },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};

const req = (method: string, url: string, auth: Record<string, string>, body?: unknown) =>
  new Request(`http://localhost${url}`, {
    method,
    headers: { "content-type": "application/json", ...auth },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });
const json = async (res: Response) =>
  (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string; details: unknown } };

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  process.env.WEFT_NOTIFY_ALLOW_PRIVATE = "true";
  resetEnvCache();
  [alice, bob] = [await createTestUser(), await createTestUser()];
  receiver = http.createServer((r, res) => {
    pings.push(String(r.headers["x-weft-event"]));
    r.resume();
    r.on("end", () => res.writeHead(200).end("ok"));
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/weft`;
});
afterAll(async () => {
  await new Promise<void>((r) => receiver.close(() => r()));
  delete process.env.WEFT_NOTIFY_ALLOW_PRIVATE;
  resetEnvCache();
  await closeSchedulesQueue();
  await closeRunsQueue();
  await closeApiRedis();
});

describe("triggers over REST", () => {
  it("schedules: create, list with next fire times, replace, pause and resume (timer follows), delete; bad input is 400 with the field", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, flow);
    const base = `/api/workflows/${workflowId}/schedules`;
    const created = await ADD_SCHEDULE(
      req("POST", base, alice.auth, { cron: "0 9 * * 1-5", timezone: "Europe/Berlin", inputs: { topic: "news" } }),
      ctx({ id: workflowId }),
    );
    expect(created.status).toBe(201);
    const { schedule, timerSet } = (await json(created)) as unknown as {
      schedule: { id: string; cron: string; next: string[] };
      timerSet: boolean;
    };
    expect(schedule).toMatchObject({ cron: "0 9 * * 1-5", enabled: true });
    expect(schedule.next.length).toBeGreaterThan(0);
    expect(timerSet).toBe(true);
    expect((await listScheduleTimers()).map((t) => t.id)).toContain(schedule.id);

    const listed = await json(await SCHEDULES(req("GET", base, alice.auth), ctx({ id: workflowId })));
    expect(listed.items).toMatchObject([{ id: schedule.id, timezone: "Europe/Berlin", inputs: { topic: "news" } }]);

    const item = { id: workflowId, itemId: schedule.id };
    const replaced = await PUT_SCHEDULE(
      req("PUT", `${base}/${schedule.id}`, alice.auth, {
        cron: "@daily",
        timezone: "UTC",
        inputs: { topic: "weekly" },
      }),
      ctx(item),
    );
    expect(replaced.status).toBe(200);
    expect(await json(replaced)).toMatchObject({
      schedule: { id: schedule.id, timezone: "UTC", inputs: { topic: "weekly" } },
    });

    const badCron = await ADD_SCHEDULE(
      req("POST", base, alice.auth, { cron: "every day", timezone: "UTC" }),
      ctx({ id: workflowId }),
    );
    expect(badCron.status).toBe(400);
    expect((await json(badCron)).error).toMatchObject({ code: "bad_request", details: { field: "cron" } });
    const badInputs = await ADD_SCHEDULE(
      req("POST", base, alice.auth, { cron: "@daily", timezone: "UTC", inputs: { nope: 1 } }),
      ctx({ id: workflowId }),
    );
    expect((await json(badInputs)).error).toMatchObject({ code: "bad_request", details: { field: "inputs" } });

    const paused = await SCHEDULE_ACTION(
      req("POST", `${base}/${schedule.id}/pause`, alice.auth),
      ctx({ ...item, action: "pause" }),
    );
    expect(await json(paused)).toMatchObject({ schedule: { enabled: false, next: [] } });
    expect((await listScheduleTimers()).map((t) => t.id)).not.toContain(schedule.id);
    await SCHEDULE_ACTION(req("POST", `${base}/${schedule.id}/resume`, alice.auth), ctx({ ...item, action: "resume" }));
    expect((await listScheduleTimers()).map((t) => t.id)).toContain(schedule.id);
    const unknown = await SCHEDULE_ACTION(
      req("POST", `${base}/${schedule.id}/rotate`, alice.auth),
      ctx({ ...item, action: "rotate" }),
    );
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error?.message).toBe('No action "rotate" (pause, resume).');

    expect((await DELETE_SCHEDULE(req("DELETE", `${base}/${schedule.id}`, alice.auth), ctx(item))).status).toBe(204);
    expect(await db().schedule.count({ where: { workflowId } })).toBe(0);
    expect((await listScheduleTimers()).map((t) => t.id)).not.toContain(schedule.id);
  });

  it("webhooks: the URL secret is answered on creation and rotation only; an item of another workflow or user is 404", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, flow);
    const other = (await createTestWorkflow(alice.id, flow)).workflowId;
    const base = `/api/workflows/${workflowId}/webhooks`;
    const created = await ADD_WEBHOOK(
      req("POST", base, alice.auth, { name: "Issue opened", inputMode: "payload", payloadField: "topic" }),
      ctx({ id: workflowId }),
    );
    expect(created.status).toBe(201);
    const { webhook, secret } = (await json(created)) as unknown as {
      webhook: { id: string; lastFour: string };
      secret: string;
    };
    expect(secret).toMatch(/^whk_/);
    expect(webhook.lastFour).toBe(secret.slice(-4));
    const listed = JSON.stringify(await json(await WEBHOOKS(req("GET", base, alice.auth), ctx({ id: workflowId }))));
    expect(listed).toContain(webhook.id);
    expect(listed).not.toContain(secret);

    const item = { id: workflowId, itemId: webhook.id };
    expect(
      await json(
        await PUT_WEBHOOK(
          req("PUT", `${base}/${webhook.id}`, alice.auth, { name: "Issue filed", inputMode: "fields" }),
          ctx(item),
        ),
      ),
    ).toMatchObject({ name: "Issue filed", inputMode: "fields", lastFour: secret.slice(-4) });
    const badField = await PUT_WEBHOOK(
      req("PUT", `${base}/${webhook.id}`, alice.auth, { name: "x", inputMode: "payload", payloadField: "nope" }),
      ctx(item),
    );
    expect((await json(badField)).error).toMatchObject({ code: "bad_request", details: { field: "payloadField" } });
    const rotated = (await json(
      await WEBHOOK_ACTION(req("POST", `${base}/${webhook.id}/rotate`, alice.auth), ctx({ ...item, action: "rotate" })),
    )) as unknown as { secret: string };
    expect(rotated.secret).toMatch(/^whk_/);
    expect(rotated.secret).not.toBe(secret);
    expect(
      await json(
        await WEBHOOK_ACTION(req("POST", `${base}/${webhook.id}/pause`, alice.auth), ctx({ ...item, action: "pause" })),
      ),
    ).toMatchObject({ enabled: false });

    // under another workflow of the same owner, or for another user: not found, nothing changed
    expect(
      (
        await PUT_WEBHOOK(
          req("PUT", `/api/workflows/${other}/webhooks/${webhook.id}`, alice.auth, { name: "stolen" }),
          ctx({ id: other, itemId: webhook.id }),
        )
      ).status,
    ).toBe(404);
    expect((await DELETE_WEBHOOK(req("DELETE", `${base}/${webhook.id}`, bob.auth), ctx(item))).status).toBe(404);
    expect((await WEBHOOKS(req("GET", base, bob.auth), ctx({ id: workflowId }))).status).toBe(404);
    expect(await db().webhook.findUniqueOrThrow({ where: { id: webhook.id } })).toMatchObject({ name: "Issue filed" });
    expect((await DELETE_WEBHOOK(req("DELETE", `${base}/${webhook.id}`, alice.auth), ctx(item))).status).toBe(204);
  });

  it("notification URLs: created with their signing secret once, pinged, edited; a cookie-less cross-site call is refused", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, flow);
    const base = `/api/workflows/${workflowId}/notifiers`;
    const created = await ADD_NOTIFIER(
      req("POST", base, alice.auth, { url: hookUrl, on: "failures" }),
      ctx({ id: workflowId }),
    );
    expect(created.status).toBe(201);
    const { notifier, secret } = (await json(created)) as unknown as {
      notifier: { id: string; on: string };
      secret: string;
    };
    expect(secret).toMatch(/^whsec_/);
    expect(notifier.on).toBe("failures");
    const item = { id: workflowId, itemId: notifier.id };
    expect(
      await json(
        await NOTIFIER_ACTION(req("POST", `${base}/${notifier.id}/ping`, alice.auth), ctx({ ...item, action: "ping" })),
      ),
    ).toEqual({ kind: "delivered", responseStatus: 200 });
    expect(pings).toEqual(["ping"]);
    const bad = await ADD_NOTIFIER(
      req("POST", base, alice.auth, { url: "ftp://example.com" }),
      ctx({ id: workflowId }),
    );
    expect((await json(bad)).error).toMatchObject({ code: "bad_request", details: { field: "url" } });
    expect((await json(await NOTIFIERS(req("GET", base, alice.auth), ctx({ id: workflowId })))).items).toMatchObject([
      { id: notifier.id, url: hookUrl },
    ]);

    const crossSite = await ADD_NOTIFIER(
      new Request(`http://localhost${base}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        body: JSON.stringify({ url: hookUrl }),
      }),
      ctx({ id: workflowId }),
    );
    expect(crossSite.status).toBe(403);
    expect(await db().runNotifier.count({ where: { workflowId } })).toBe(1);
  });
});
