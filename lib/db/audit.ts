import "server-only";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createLogger } from "@/lib/logger";

const log = createLogger({ component: "audit" });

/** Who acted: a member, through their session or one of their API tokens (`token:<name>`). */
export interface Actor {
  workspaceId: string;
  userId: string;
  via: string;
}

/** What the audit log records (one name per kind of act). */
export type AuditAction =
  | "workflow.saved"
  | "workflow.deleted"
  | "run.started"
  | "run.cancelled"
  | "run.answered"
  | "share.created"
  | "share.revoked"
  | "tool.approved"
  | "tool.revoked"
  | "credential.saved"
  | "credential.deleted"
  | "token.created"
  | "token.revoked"
  | "member.invited"
  | "member.joined"
  | "member.role_changed"
  | "member.removed"
  | "workspace.created"
  | "workspace.renamed";

export interface AuditEntry {
  id: string;
  actorId: string | null;
  actorName: string | null;
  via: string;
  action: string;
  targetType: string;
  targetId: string;
  details: unknown;
  createdAt: Date;
}

/**
 * Records one act in its workspace's audit log. A failure is logged, never thrown: the act itself
 * already happened and its caller must not be told otherwise.
 */
export async function recordAudit(
  actor: Actor,
  action: AuditAction,
  target: { type: string; id: string },
  details: Record<string, unknown> = {},
): Promise<void> {
  await db()
    .auditEvent.create({
      data: {
        workspaceId: actor.workspaceId,
        actorId: actor.userId,
        via: actor.via,
        action,
        targetType: target.type,
        targetId: target.id,
        details: details as Prisma.InputJsonValue,
      },
    })
    .catch((err: unknown) => log.error("audit event not recorded", { err, action }));
}

/** The workspace's latest acts, newest first, with the actor's name as it stands now. */
export async function listAudit(workspaceId: string, limit = 100): Promise<AuditEntry[]> {
  const rows = await db().auditEvent.findMany({
    where: { workspaceId },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(limit, 1), 500),
  });
  const ids = [...new Set(rows.flatMap((r) => (r.actorId ? [r.actorId] : [])))];
  const users = await db().user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } });
  const nameOf = new Map(users.map((u) => [u.id, u.name ?? u.email]));
  return rows.map((r) => ({
    id: r.id,
    actorId: r.actorId,
    actorName: r.actorId ? (nameOf.get(r.actorId) ?? null) : null,
    via: r.via,
    action: r.action,
    targetType: r.targetType,
    targetId: r.targetId,
    details: r.details,
    createdAt: r.createdAt,
  }));
}
