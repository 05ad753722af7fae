"use server";
import { revalidatePath } from "next/cache";
import * as z from "zod";
import type { FormResult } from "@/components/settings/types";
import type { NotifierSecretResult } from "@/components/workflows/notifier-types";
import { requireAccess } from "@/lib/auth/access";
import {
  createNotifier,
  deleteNotifier,
  pauseNotifier,
  pingNotifier,
  redeliver,
  updateNotifier,
  type NotifierInput,
} from "@/lib/notifications/service";

import { idSchema, refusal, rowAction } from "./action-results";

/** The notifier form's fields (url, on). */
const notifierFields = (form: FormData): NotifierInput => ({
  url: String(form.get("url") ?? ""),
  on: form.get("on") === "failures" ? "failures" : "all",
});

/** Changes a notification URL from the form (workflowId, id, url, on); its secret stays. */
export async function updateNotifierAction(_prev: FormResult, form: FormData): Promise<FormResult> {
  const access = await requireAccess("edit");
  const workflowId = idSchema.parse(form.get("workflowId"));
  try {
    await updateNotifier(access.workspaceId, workflowId, idSchema.parse(form.get("id")), notifierFields(form));
    revalidatePath(`/workflows/${workflowId}`);
    return { status: "ok", message: "Notification URL saved." };
  } catch (err) {
    return refusal(err);
  }
}

/** Adds a notification URL from the form (workflowId, url, on); its signing secret is answered once, here. */
export async function createNotifierAction(_prev: NotifierSecretResult, form: FormData): Promise<NotifierSecretResult> {
  const access = await requireAccess("edit");
  const workflowId = idSchema.parse(form.get("workflowId"));
  try {
    const { notifier, secret } = await createNotifier(access.workspaceId, workflowId, notifierFields(form));
    revalidatePath(`/workflows/${workflowId}`);
    return { status: "ok", url: notifier.url, secret };
  } catch (err) {
    return refusal(err);
  }
}

/** Sends a signed test POST now and says how the receiver answered. */
export async function pingNotifierAction(workflowId: string, id: string): Promise<FormResult> {
  const access = await requireAccess("edit");
  idSchema.parse(workflowId);
  try {
    const r = await pingNotifier(access.workspaceId, idSchema.parse(id));
    return r.kind === "delivered"
      ? { status: "ok", message: `Test received (${r.responseStatus}).` }
      : { status: "error", message: `Test not received: ${r.error}` };
  } catch (err) {
    return refusal(err);
  }
}

/** Pauses or resumes one of the user's notification URLs. */
export async function pauseNotifierAction(workflowId: string, id: string, paused: boolean): Promise<FormResult> {
  return rowAction(
    workflowId,
    (userId) => pauseNotifier(userId, idSchema.parse(id), z.boolean().parse(paused)),
    paused ? "Notifications paused." : "Notifications resumed.",
  );
}

/** Deletes one of the user's notification URLs with its delivery records. */
export async function deleteNotifierAction(workflowId: string, id: string): Promise<FormResult> {
  return rowAction(workflowId, (userId) => deleteNotifier(userId, idSchema.parse(id)), "Notification URL deleted.");
}

/** Sends one of the user's deliveries again with fresh tries. */
export async function redeliverAction(workflowId: string, deliveryId: string): Promise<FormResult> {
  return rowAction(workflowId, (userId) => redeliver(userId, idSchema.parse(deliveryId)), "Sending again.");
}
