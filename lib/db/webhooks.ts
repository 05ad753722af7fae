import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";

/** Prefix of every webhook secret, so a leaked URL is recognisable (secret scanners, logs). */
export const WEBHOOK_SECRET_PREFIX = "whk_";

/** Webhooks one user may keep (all workflows together). */
export const MAX_WEBHOOKS_PER_USER = 50;

export type WebhookInputMode = "fields" | "payload";

/** One call of a webhook: when, the HTTP status answered, and the run it started or why it started none. */
export interface WebhookCallView {
  at: Date;
  status: number;
  runId: string | null;
  error: string | null;
}

/** Calls kept per webhook (older ones are deleted as new ones come). */
export const WEBHOOK_CALLS_KEPT = 20;
/** Calls the workflow page lists per webhook. */
export const WEBHOOK_CALLS_SHOWN = 5;

/** A webhook as its owner sees it: never the secret, only its last four characters. */
export interface WebhookView {
  id: string;
  workflowId: string;
  name: string;
  lastFour: string;
  inputMode: WebhookInputMode;
  payloadField: string | null;
  enabled: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  lastRunId: string | null;
  lastError: string | null;
  /** The latest calls, newest first. */
  recent: WebhookCallView[];
}

/** What a call needs (system side: the caller holds the secret, not a session). */
export interface WebhookTarget {
  id: string;
  workspaceId: string;
  workflowId: string;
  name: string;
  inputMode: WebhookInputMode;
  payloadField: string | null;
  enabled: boolean;
  /** The workflow's newest saved version (its document as stored), null before the first save. */
  latest: { id: string; version: number; document: unknown } | null;
}

const view = {
  id: true,
  workflowId: true,
  name: true,
  lastFour: true,
  inputMode: true,
  payloadField: true,
  enabled: true,
  createdAt: true,
  lastUsedAt: true,
  lastRunId: true,
  lastError: true,
  calls: {
    select: { at: true, status: true, runId: true, error: true },
    orderBy: { at: "desc" },
    take: WEBHOOK_CALLS_SHOWN,
  },
} as const;
type Row = Omit<WebhookView, "recent"> & { calls: WebhookCallView[] };
const asView = ({ calls, ...w }: Row): WebhookView => ({ ...w, recent: calls });

/** SHA-256 hex of a secret: what is stored and looked up (a fast hash is fine for 192-bit random secrets). */
export const hashWebhookSecret = (secret: string): string => createHash("sha256").update(secret, "utf8").digest("hex");

const newSecret = (): string => `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString("base64url")}`;

/**
 * Adds a webhook to the owner's workflow and answers it with its secret (shown once; only the
 * hash is stored). not_found for another user's workflow; conflict past MAX_WEBHOOKS_PER_USER.
 */
export async function createWebhookRow(
  workspaceId: string,
  workflowId: string,
  data: { name: string; inputMode: WebhookInputMode; payloadField: string | null },
): Promise<{ webhook: WebhookView; secret: string }> {
  const [workflow, count] = await Promise.all([
    db().workflow.findFirst({ where: { id: workflowId, workspaceId }, select: { id: true } }),
    db().webhook.count({ where: { workspaceId } }),
  ]);
  if (!workflow) throw notFound("Workflow not found");
  if (count >= MAX_WEBHOOKS_PER_USER)
    throw new AppError("conflict", `You already have ${MAX_WEBHOOKS_PER_USER} webhooks: delete one first.`);
  const secret = newSecret();
  const webhook = await db().webhook.create({
    data: { workspaceId, workflowId, ...data, secretHash: hashWebhookSecret(secret), lastFour: secret.slice(-4) },
    select: view,
  });
  return { webhook: asView(webhook), secret };
}

/** The owner's webhooks of one workflow, oldest first. */
export async function listWebhooks(workspaceId: string, workflowId: string): Promise<WebhookView[]> {
  return (
    await db().webhook.findMany({ where: { workspaceId, workflowId }, orderBy: { createdAt: "asc" }, select: view })
  ).map(asView);
}

/** Renames one of the owner's webhooks of that workflow or changes what it does with a body (its URL stays); null when not theirs. */
export async function updateWebhookRow(
  workspaceId: string,
  workflowId: string,
  id: string,
  data: { name: string; inputMode: WebhookInputMode; payloadField: string | null },
): Promise<WebhookView | null> {
  const { count } = await db().webhook.updateMany({ where: { id, workspaceId, workflowId }, data });
  if (!count) return null;
  return asView(await db().webhook.findUniqueOrThrow({ where: { id }, select: view }));
}

/** Pauses or resumes one of the owner's webhooks; null when not theirs. */
export async function setWebhookEnabled(
  workspaceId: string,
  id: string,
  enabled: boolean,
): Promise<WebhookView | null> {
  const { count } = await db().webhook.updateMany({ where: { id, workspaceId }, data: { enabled } });
  if (!count) return null;
  return asView(await db().webhook.findUniqueOrThrow({ where: { id }, select: view }));
}

/** Gives one of the owner's webhooks a new secret (the old URL stops working at once); null when not theirs. */
export async function rotateWebhookSecret(
  workspaceId: string,
  id: string,
): Promise<{ webhook: WebhookView; secret: string } | null> {
  const secret = newSecret();
  const { count } = await db().webhook.updateMany({
    where: { id, workspaceId },
    data: { secretHash: hashWebhookSecret(secret), lastFour: secret.slice(-4) },
  });
  if (!count) return null;
  return { webhook: asView(await db().webhook.findUniqueOrThrow({ where: { id }, select: view })), secret };
}

/** Deletes one of the owner's webhooks; false when not theirs. */
export async function deleteWebhookRow(workspaceId: string, id: string): Promise<boolean> {
  const { count } = await db().webhook.deleteMany({ where: { id, workspaceId } });
  return count > 0;
}

/** System side: the webhook a secret opens, with its workflow's newest saved version; null for an unknown or malformed secret. */
export async function webhookBySecret(secret: string): Promise<WebhookTarget | null> {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX) || secret.length > 100) return null;
  const row = await db().webhook.findUnique({
    where: { secretHash: hashWebhookSecret(secret) },
    select: {
      id: true,
      workspaceId: true,
      workflowId: true,
      name: true,
      inputMode: true,
      payloadField: true,
      enabled: true,
      workflow: {
        select: {
          versions: { select: { id: true, version: true, document: true }, orderBy: { version: "desc" }, take: 1 },
        },
      },
    },
  });
  if (!row) return null;
  const { workflow, ...rest } = row;
  return { ...rest, latest: workflow.versions[0] ?? null };
}

/**
 * System side: what a call did (the HTTP status answered, the run it started or why it started
 * none), as the webhook's last call and in its call log, which keeps the latest WEBHOOK_CALLS_KEPT.
 */
export async function recordWebhookCall(
  id: string,
  outcome: { status: number } & ({ runId: string } | { error: string }),
): Promise<void> {
  const at = new Date();
  const ran = "runId" in outcome;
  const error = ran ? null : outcome.error.slice(0, 500);
  await db().$transaction([
    db().webhook.updateMany({
      where: { id },
      data: { lastUsedAt: at, ...(ran ? { lastRunId: outcome.runId, lastError: null } : { lastError: error }) },
    }),
    db().webhookCall.create({
      data: { webhookId: id, at, status: outcome.status, runId: ran ? outcome.runId : null, error },
    }),
    db().$executeRaw`DELETE FROM "WebhookCall" WHERE "webhookId" = ${id} AND id NOT IN (
      SELECT id FROM "WebhookCall" WHERE "webhookId" = ${id} ORDER BY at DESC, id DESC LIMIT ${WEBHOOK_CALLS_KEPT})`,
  ]);
}
