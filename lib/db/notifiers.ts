import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { keyring } from "@/lib/crypto/keyring";
import { decryptSecret, encryptSecret, lastFour } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";

/** Notifiers one user may keep (all workflows together). */
export const MAX_NOTIFIERS_PER_USER = 50;

/** Which endings a notifier hears of: every one, or all but `succeeded`. */
export type NotifyOn = "all" | "failures";

/** A notifier's delivery, as its owner sees it. */
export interface DeliveryView {
  id: string;
  runId: string;
  /** run.finished or run.waiting (a human review waits). */
  event: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: Date;
}

/** A notifier as its owner sees it: the secret's last four characters only. */
export interface NotifierView {
  id: string;
  workflowId: string;
  url: string;
  on: NotifyOn;
  secretLast4: string;
  enabled: boolean;
  createdAt: Date;
  lastDelivery: DeliveryView | null;
  /** The latest RECENT_DELIVERIES deliveries, newest first. */
  recent: DeliveryView[];
}

/** How many deliveries the workflow page lists per notifier. */
export const RECENT_DELIVERIES = 5;

const deliveryView = {
  id: true,
  runId: true,
  event: true,
  status: true,
  attempts: true,
  responseStatus: true,
  error: true,
  createdAt: true,
} as const;
const view = {
  id: true,
  workflowId: true,
  url: true,
  on: true,
  secretLast4: true,
  enabled: true,
  createdAt: true,
  deliveries: { select: deliveryView, orderBy: { createdAt: "desc" }, take: RECENT_DELIVERIES },
} as const;
type Row = { deliveries: DeliveryView[] } & Omit<NotifierView, "lastDelivery" | "recent">;
const asView = ({ deliveries, ...n }: Row): NotifierView => ({
  ...n,
  lastDelivery: deliveries[0] ?? null,
  recent: deliveries,
});

/** Binds a notifier's encrypted secret to its row: a ciphertext copied to another row does not decrypt. */
const notifierAad = (id: string, workspaceId: string): string => `notifier:${id}:${workspaceId}`;

/**
 * Adds a notifier to the owner's workflow with a fresh signing secret, answered once (stored
 * encrypted: deliveries need it back). not_found for another user's workflow; conflict past the cap.
 */
export async function createNotifierRow(
  workspaceId: string,
  workflowId: string,
  data: { url: string; on: NotifyOn },
): Promise<{ notifier: NotifierView; secret: string }> {
  const [workflow, count] = await Promise.all([
    db().workflow.findFirst({ where: { id: workflowId, workspaceId }, select: { id: true } }),
    db().runNotifier.count({ where: { workspaceId } }),
  ]);
  if (!workflow) throw notFound("Workflow not found");
  if (count >= MAX_NOTIFIERS_PER_USER)
    throw new AppError("conflict", `You already have ${MAX_NOTIFIERS_PER_USER} notification URLs: delete one first.`);
  const id = randomUUID();
  const secret = `whsec_${randomBytes(24).toString("base64url")}`;
  const row = await db().runNotifier.create({
    data: {
      id,
      workspaceId,
      workflowId,
      ...data,
      secretEnc: encryptSecret(keyring(), secret, notifierAad(id, workspaceId)),
      secretLast4: lastFour(secret),
    },
    select: view,
  });
  return { notifier: asView(row), secret };
}

/** The owner's notifiers of one workflow, oldest first, each with its last delivery. */
export async function listNotifiers(workspaceId: string, workflowId: string): Promise<NotifierView[]> {
  return (
    await db().runNotifier.findMany({ where: { workspaceId, workflowId }, orderBy: { createdAt: "asc" }, select: view })
  ).map(asView);
}

/** Changes one of the owner's notifiers of that workflow: its URL and which endings it hears of (the secret stays); null when not theirs. */
export async function updateNotifierRow(
  workspaceId: string,
  workflowId: string,
  id: string,
  data: { url: string; on: NotifyOn },
): Promise<NotifierView | null> {
  const { count } = await db().runNotifier.updateMany({ where: { id, workspaceId, workflowId }, data });
  if (!count) return null;
  return asView(await db().runNotifier.findUniqueOrThrow({ where: { id }, select: view }));
}

/** Pauses or resumes one of the owner's notifiers; null when not theirs. */
export async function setNotifierEnabled(
  workspaceId: string,
  id: string,
  enabled: boolean,
): Promise<NotifierView | null> {
  // resuming starts listening anew: runs that ended while paused are not sent (enabledAt)
  const { count } = await db().runNotifier.updateMany({
    where: { id, workspaceId },
    data: enabled ? { enabled, enabledAt: new Date() } : { enabled },
  });
  if (!count) return null;
  return asView(await db().runNotifier.findUniqueOrThrow({ where: { id }, select: view }));
}

/** Deletes one of the owner's notifiers (and its delivery records); false when not theirs. */
export async function deleteNotifierRow(workspaceId: string, id: string): Promise<boolean> {
  const { count } = await db().runNotifier.deleteMany({ where: { id, workspaceId } });
  return count > 0;
}

/** Where and how to send: a notifier's URL and decrypted secret (the owner's own, or the system's for a delivery). */
export async function notifierTarget(
  id: string,
  workspaceId?: string,
): Promise<{ id: string; workspaceId: string; url: string; secret: string; enabled: boolean } | null> {
  const row = await db().runNotifier.findFirst({
    where: { id, ...(workspaceId ? { workspaceId } : {}) },
    select: { id: true, workspaceId: true, url: true, secretEnc: true, enabled: true },
  });
  if (!row) return null;
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    url: row.url,
    enabled: row.enabled,
    secret: decryptSecret(keyring(), row.secretEnc, notifierAad(row.id, row.workspaceId)),
  };
}
