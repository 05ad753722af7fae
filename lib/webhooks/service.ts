import "server-only";
import * as z from "zod";
import {
  createWebhookRow,
  deleteWebhookRow,
  listWebhooks,
  rotateWebhookSecret,
  setWebhookEnabled,
  updateWebhookRow,
  type WebhookView,
} from "@/lib/db/webhooks";
import { getWorkflow } from "@/lib/db/workflows";
import { AppError, notFound } from "@/lib/errors";

export const webhookInputSchema = z
  .object({
    name: z.string().trim().min(1, "Enter a name").max(80, "At most 80 characters"),
    inputMode: z.enum(["fields", "payload"]).default("fields"),
    payloadField: z.string().trim().max(64).optional(),
  })
  .refine((w) => w.inputMode === "fields" || !!w.payloadField, {
    message: "Choose the input field that receives the body",
    path: ["payloadField"],
  });
export type WebhookInput = z.input<typeof webhookInputSchema>;

/** A webhook with its secret, as answered once, when it is created or given a new secret. */
export interface WebhookWithSecret {
  webhook: WebhookView;
  secret: string;
}

/**
 * A webhook's name and body handling, checked: a name, and in payload mode a field the workflow's
 * draft declares. bad_request with the field at fault; not_found for another user's workflow.
 */
async function checkedWebhook(
  workspaceId: string,
  workflowId: string,
  input: WebhookInput,
): Promise<{ name: string; inputMode: "fields" | "payload"; payloadField: string | null }> {
  const parsed = webhookInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request", issue?.message ?? "Invalid webhook.", {
      field: String(issue?.path[0] ?? "name"),
    });
  }
  const { name, inputMode } = parsed.data;
  const payloadField = inputMode === "payload" ? (parsed.data.payloadField ?? null) : null;
  const workflow = await getWorkflow(workspaceId, workflowId);
  if (!workflow) throw notFound("Workflow not found");
  if (payloadField !== null && workflow.document && !workflow.document.inputs.some((f) => f.key === payloadField)) {
    throw new AppError("bad_request", `The workflow has no input field "${payloadField}".`, { field: "payloadField" });
  }
  return { name, inputMode, payloadField };
}

/** Adds a webhook to the owner's workflow (checked by checkedWebhook; nothing saved on a refusal). */
export async function createWebhook(
  workspaceId: string,
  workflowId: string,
  input: WebhookInput,
): Promise<WebhookWithSecret> {
  return createWebhookRow(workspaceId, workflowId, await checkedWebhook(workspaceId, workflowId, input));
}

/** Renames one of the owner's webhooks or changes its body handling; its URL stays the same. */
export async function updateWebhook(
  workspaceId: string,
  workflowId: string,
  id: string,
  input: WebhookInput,
): Promise<WebhookView> {
  const row = await updateWebhookRow(workspaceId, workflowId, id, await checkedWebhook(workspaceId, workflowId, input));
  if (!row) throw notFound("Webhook not found");
  return row;
}

/** The owner's webhooks of a workflow, oldest first. */
export async function webhooksOf(workspaceId: string, workflowId: string): Promise<WebhookView[]> {
  return listWebhooks(workspaceId, workflowId);
}

/** Pauses (calls answer 409) or resumes one of the owner's webhooks. */
export async function pauseWebhook(workspaceId: string, id: string, paused: boolean): Promise<WebhookView> {
  const row = await setWebhookEnabled(workspaceId, id, !paused);
  if (!row) throw notFound("Webhook not found");
  return row;
}

/** Gives one of the owner's webhooks a new secret URL; the old one answers 404 from now on. */
export async function rotateWebhook(workspaceId: string, id: string): Promise<WebhookWithSecret> {
  const rotated = await rotateWebhookSecret(workspaceId, id);
  if (!rotated) throw notFound("Webhook not found");
  return rotated;
}

/** Deletes one of the owner's webhooks. */
export async function deleteWebhook(workspaceId: string, id: string): Promise<void> {
  if (!(await deleteWebhookRow(workspaceId, id))) throw notFound("Webhook not found");
}
