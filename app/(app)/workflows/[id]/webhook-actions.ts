"use server";
import { revalidatePath } from "next/cache";
import * as z from "zod";
import type { FormResult } from "@/components/settings/types";
import type { WebhookSecretResult } from "@/components/workflows/webhook-types";
import { requireAccess } from "@/lib/auth/access";
import {
  createWebhook,
  deleteWebhook,
  pauseWebhook,
  rotateWebhook,
  updateWebhook,
  type WebhookInput,
} from "@/lib/webhooks/service";

import { idSchema, refusal, rowAction } from "./action-results";

/** The webhook form's fields (name, inputMode, payloadField). */
const webhookFields = (form: FormData): WebhookInput => ({
  name: String(form.get("name") ?? ""),
  inputMode: form.get("inputMode") === "payload" ? "payload" : "fields",
  payloadField: String(form.get("payloadField") ?? "") || undefined,
});

/** Adds a webhook from the form (workflowId and its fields); its secret URL is answered once, here. */
export async function createWebhookAction(_prev: WebhookSecretResult, form: FormData): Promise<WebhookSecretResult> {
  const access = await requireAccess("edit");
  const workflowId = idSchema.parse(form.get("workflowId"));
  try {
    const { webhook, secret } = await createWebhook(access.workspaceId, workflowId, webhookFields(form));
    revalidatePath(`/workflows/${workflowId}`);
    return { status: "ok", name: webhook.name, secret };
  } catch (err) {
    return refusal(err);
  }
}

/** Pauses or resumes one of the user's webhooks (a paused one answers 409). */
export async function pauseWebhookAction(workflowId: string, id: string, paused: boolean): Promise<FormResult> {
  return rowAction(
    workflowId,
    (userId) => pauseWebhook(userId, idSchema.parse(id), z.boolean().parse(paused)),
    paused ? "Webhook paused." : "Webhook resumed.",
  );
}

/** Gives one of the user's webhooks a new secret URL (answered once); the old URL stops working. */
export async function rotateWebhookAction(workflowId: string, id: string): Promise<WebhookSecretResult> {
  const access = await requireAccess("edit");
  try {
    const { webhook, secret } = await rotateWebhook(access.workspaceId, idSchema.parse(id));
    revalidatePath(`/workflows/${idSchema.parse(workflowId)}`);
    return { status: "ok", name: webhook.name, secret };
  } catch (err) {
    return refusal(err);
  }
}

/** Deletes one of the user's webhooks; its URL answers 404 from now on. */
export async function deleteWebhookAction(workflowId: string, id: string): Promise<FormResult> {
  return rowAction(workflowId, (userId) => deleteWebhook(userId, idSchema.parse(id)), "Webhook deleted.");
}

/** Renames a webhook or changes its body handling from the form (workflowId, id and its fields). */
export async function updateWebhookAction(_prev: FormResult, form: FormData): Promise<FormResult> {
  const access = await requireAccess("edit");
  const workflowId = idSchema.parse(form.get("workflowId"));
  try {
    await updateWebhook(access.workspaceId, workflowId, idSchema.parse(form.get("id")), webhookFields(form));
    revalidatePath(`/workflows/${workflowId}`);
    return { status: "ok", message: "Webhook saved." };
  } catch (err) {
    return refusal(err);
  }
}
