import "server-only";
import { randomUUID } from "node:crypto";
import * as z from "zod";
import {
  createNotifierRow,
  deleteNotifierRow,
  listNotifiers,
  notifierTarget,
  setNotifierEnabled,
  updateNotifierRow,
  type NotifierView,
} from "@/lib/db/notifiers";
import { AppError, notFound } from "@/lib/errors";
import { resetDeliveryForOwner } from "@/lib/db/deliveries";
import { enqueueDelivery } from "@/lib/queue";
import { sendSigned, type SendResult } from "./send";

export const notifierInputSchema = z.object({
  url: z
    .string()
    .trim()
    .max(2_000, "At most 2,000 characters")
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), "Enter an http:// or https:// URL")
    .refine(
      (u) => !URL.canParse(u) || (!new URL(u).username && !new URL(u).password),
      "Leave credentials out of the URL",
    ),
  on: z.enum(["all", "failures"]).default("all"),
});
export type NotifierInput = z.input<typeof notifierInputSchema>;

/**
 * Adds a notification URL to the owner's workflow: every run of it that ends from now on (or only
 * those that do not succeed) is POSTed there, signed with the secret answered here, once.
 * bad_request with the field for a URL that is not http(s).
 */
export async function createNotifier(
  workspaceId: string,
  workflowId: string,
  input: NotifierInput,
): Promise<{ notifier: NotifierView; secret: string }> {
  return createNotifierRow(workspaceId, workflowId, checkedNotifier(input));
}

/** Changes one of the owner's notifiers: its URL and which endings it hears of; its secret stays. */
export async function updateNotifier(
  workspaceId: string,
  workflowId: string,
  id: string,
  input: NotifierInput,
): Promise<NotifierView> {
  const row = await updateNotifierRow(workspaceId, workflowId, id, checkedNotifier(input));
  if (!row) throw notFound("Notification URL not found");
  return row;
}

/** The form's URL and choice, parsed; bad_request naming the field otherwise. */
function checkedNotifier(input: NotifierInput): z.infer<typeof notifierInputSchema> {
  const parsed = notifierInputSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError("bad_request", issue?.message ?? "Invalid notification URL.", {
    field: String(issue?.path[0] ?? "url"),
  });
}

/** The owner's notifiers of a workflow with their last delivery. */
export const notifiersOf = (workspaceId: string, workflowId: string): Promise<NotifierView[]> =>
  listNotifiers(workspaceId, workflowId);

/** Pauses (nothing is sent; pending deliveries fail as "paused") or resumes one of the owner's notifiers. */
export async function pauseNotifier(workspaceId: string, id: string, paused: boolean): Promise<NotifierView> {
  const row = await setNotifierEnabled(workspaceId, id, !paused);
  if (!row) throw notFound("Notification URL not found");
  return row;
}

export async function deleteNotifier(workspaceId: string, id: string): Promise<void> {
  if (!(await deleteNotifierRow(workspaceId, id))) throw notFound("Notification URL not found");
}

/**
 * Sends a signed `ping` to one of the owner's notifiers now, from this process, and answers how it
 * went (the receiver's status or the error): for checking a receiver before real runs end.
 */
export async function pingNotifier(workspaceId: string, id: string): Promise<SendResult> {
  const target = await notifierTarget(id, workspaceId);
  if (!target) throw notFound("Notification URL not found");
  const deliveryId = `ping-${randomUUID()}`;
  return sendSigned(
    target.url,
    target.secret,
    "ping",
    deliveryId,
    JSON.stringify({ event: "ping", deliveryId, notifierId: id }),
  );
}

/** Sends one of the owner's deliveries again, with fresh tries (the same deliveryId, so receivers can tell). */
export async function redeliver(workspaceId: string, deliveryId: string): Promise<void> {
  if (!(await resetDeliveryForOwner(workspaceId, deliveryId))) throw notFound("Delivery not found");
  await enqueueDelivery(deliveryId, { again: true });
}
