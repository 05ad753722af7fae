import "server-only";
import * as z from "zod";
import { getWorkflow } from "@/lib/db/workflows";
import { AppError, notFound } from "@/lib/errors";
import { requireCaller } from "@/lib/http/caller";
import { handle, jsonBody, requireMutationCaller } from "@/lib/http/handle";
import {
  createNotifier,
  deleteNotifier,
  notifiersOf,
  pauseNotifier,
  pingNotifier,
  updateNotifier,
  type NotifierInput,
} from "@/lib/notifications/service";
import {
  createSchedule,
  deleteSchedule,
  pauseSchedule,
  schedulesOf,
  updateSchedule,
  type ScheduleInput,
} from "@/lib/schedules/service";
import {
  createWebhook,
  deleteWebhook,
  pauseWebhook,
  rotateWebhook,
  updateWebhook,
  webhooksOf,
  type WebhookInput,
} from "@/lib/webhooks/service";

/**
 * The REST side of a workflow's triggers and notification URLs — the same services as the workflow
 * page's cards, so the same checks and answers:
 *   GET|POST  /api/workflows/:id/<kind>                     list | create (201)
 *   PUT|DELETE /api/workflows/:id/<kind>/:itemId             replace | delete (204)
 *   POST      /api/workflows/:id/<kind>/:itemId/:action      pause, resume, and per kind rotate (webhooks: a new URL) or ping (notifiers)
 * for kind schedules, webhooks and notifiers. Secrets (a webhook's URL secret, a notifier's signing
 * secret) are answered once, on creation or rotation. An item of another workflow is 404 here.
 */
interface Resource {
  label: string;
  list(workspaceId: string, workflowId: string): Promise<{ id: string }[]>;
  create(workspaceId: string, workflowId: string, input: unknown): Promise<unknown>;
  update(workspaceId: string, workflowId: string, id: string, input: unknown): Promise<unknown>;
  pause(workspaceId: string, id: string, paused: boolean): Promise<unknown>;
  remove(workspaceId: string, id: string): Promise<unknown>;
  /** Actions beyond pause and resume. */
  actions: Record<string, (workspaceId: string, id: string) => Promise<unknown>>;
}

export const schedulesResource: Resource = {
  label: "Schedule",
  list: schedulesOf,
  create: (o, w, input) => createSchedule(o, w, input as ScheduleInput),
  update: (o, w, id, input) => updateSchedule(o, w, id, input as ScheduleInput),
  pause: pauseSchedule,
  remove: deleteSchedule,
  actions: {},
};

export const webhooksResource: Resource = {
  label: "Webhook",
  list: webhooksOf,
  create: (o, w, input) => createWebhook(o, w, input as WebhookInput),
  update: (o, w, id, input) => updateWebhook(o, w, id, input as WebhookInput),
  pause: pauseWebhook,
  remove: deleteWebhook,
  actions: { rotate: rotateWebhook },
};

export const notifiersResource: Resource = {
  label: "Notification URL",
  list: notifiersOf,
  create: (o, w, input) => createNotifier(o, w, input as NotifierInput),
  update: (o, w, id, input) => updateNotifier(o, w, id, input as NotifierInput),
  pause: pauseNotifier,
  remove: deleteNotifier,
  actions: { ping: pingNotifier },
};

type Params<P> = { params: Promise<P> };
const body = z.record(z.string(), z.unknown());

/** The item, when it is one of this workflow's (404 otherwise, as for another user's). */
async function mine(r: Resource, workspaceId: string, workflowId: string, itemId: string): Promise<void> {
  if (!(await r.list(workspaceId, workflowId)).some((x) => x.id === itemId)) throw notFound(`${r.label} not found`);
}

/** GET (list) and POST (create) of /api/workflows/:id/<kind>. */
export function collectionRoutes(r: Resource) {
  return {
    GET: (request: Request, context: Params<{ id: string }>) =>
      handle(async () => {
        const caller = await requireCaller(request);
        const { id } = await context.params;
        if (!(await getWorkflow(caller.workspaceId, id))) throw notFound("Workflow not found");
        return Response.json({ items: await r.list(caller.workspaceId, id) });
      }),
    POST: (request: Request, context: Params<{ id: string }>) =>
      handle(async () => {
        const caller = await requireMutationCaller(request);
        const input = await jsonBody(request, body);
        return Response.json(await r.create(caller.workspaceId, (await context.params).id, input), { status: 201 });
      }),
  };
}

/** PUT (replace) and DELETE of /api/workflows/:id/<kind>/:itemId. */
export function itemRoutes(r: Resource) {
  return {
    PUT: (request: Request, context: Params<{ id: string; itemId: string }>) =>
      handle(async () => {
        const caller = await requireMutationCaller(request);
        const { id, itemId } = await context.params;
        const input = await jsonBody(request, body);
        await mine(r, caller.workspaceId, id, itemId);
        return Response.json(await r.update(caller.workspaceId, id, itemId, input));
      }),
    DELETE: (request: Request, context: Params<{ id: string; itemId: string }>) =>
      handle(async () => {
        const caller = await requireMutationCaller(request);
        const { id, itemId } = await context.params;
        await mine(r, caller.workspaceId, id, itemId);
        await r.remove(caller.workspaceId, itemId);
        return new Response(null, { status: 204 });
      }),
  };
}

/** POST /api/workflows/:id/<kind>/:itemId/:action (pause, resume, or the kind's own). */
export function actionRoute(r: Resource) {
  return {
    POST: (request: Request, context: Params<{ id: string; itemId: string; action: string }>) =>
      handle(async () => {
        const caller = await requireMutationCaller(request);
        const { id, itemId, action } = await context.params;
        const run =
          action === "pause" || action === "resume"
            ? (o: string, i: string) => r.pause(o, i, action === "pause")
            : r.actions[action];
        if (!run)
          throw new AppError(
            "not_found",
            `No action "${action}" (${["pause", "resume", ...Object.keys(r.actions)].join(", ")}).`,
          );
        await mine(r, caller.workspaceId, id, itemId);
        return Response.json(await run(caller.workspaceId, itemId));
      }),
  };
}
