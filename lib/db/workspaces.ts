import "server-only";
import { createHash, randomBytes } from "node:crypto";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { publishRevocation } from "@/lib/queue/revocations";
import { allows, isRole, ROLES, type Permission, type Role } from "@/lib/roles";

/**
 * Workspaces and their members: the one place that decides whether a user may do something in a
 * workspace. Every tenant-owned row carries its workspaceId and every lib/db query is scoped by it;
 * the route, page and action layers ask `authorize` first (lib/http/permissions.ts names the
 * permission of each). A user's personal workspace has the user's id (the "User_personal_workspace"
 * trigger makes it with the account).
 */

export interface WorkspaceView {
  id: string;
  name: string;
  role: Role;
  personal: boolean;
}

export interface MemberView {
  userId: string;
  name: string | null;
  email: string | null;
  role: Role;
  joinedAt: Date;
}

export const workspaceNameSchema = z.string().trim().min(1, "Enter a name").max(80, "At most 80 characters");
export const roleSchema = z.enum(ROLES);

/** A member's role in a workspace, or null for a non-member (and an unknown workspace). */
export async function roleIn(userId: string, workspaceId: string): Promise<Role | null> {
  const row = await db().membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    select: { role: true },
  });
  return row && isRole(row.role) ? row.role : null;
}

/**
 * The member's role when it holds `permission`; a non-member gets not_found (a workspace's existence
 * is not told to outsiders) and a member whose role falls short gets forbidden, naming both.
 */
export async function authorize(userId: string, workspaceId: string, permission: Permission): Promise<Role> {
  const role = await roleIn(userId, workspaceId);
  if (!role) throw notFound("Workspace not found");
  if (!allows(role, permission)) throw forbiddenFor(role, permission);
  return role;
}

/** The refusal of a member whose role falls short. */
export function forbiddenFor(role: Role, permission: Permission): AppError {
  return new AppError("forbidden", `Your role in this workspace (${role}) does not allow this (${permission}).`, {
    role,
    permission,
  });
}

/** The user's workspaces, personal first, then by name. */
export async function listWorkspaces(userId: string): Promise<WorkspaceView[]> {
  const rows = await db().membership.findMany({
    where: { userId },
    select: { role: true, workspace: { select: { id: true, name: true, personalOf: true } } },
  });
  return rows
    .map((r) => ({
      id: r.workspace.id,
      name: r.workspace.name,
      role: r.role as Role,
      personal: r.workspace.personalOf === userId,
    }))
    .sort((a, b) => Number(b.personal) - Number(a.personal) || a.name.localeCompare(b.name));
}

/** A new shared workspace with its maker as owner. */
export async function createWorkspace(userId: string, name: string): Promise<WorkspaceView> {
  const parsed = workspaceNameSchema.parse(name);
  const ws = await db().workspace.create({
    data: { name: parsed, members: { create: { userId, role: "owner" } } },
    select: { id: true, name: true },
  });
  return { ...ws, role: "owner", personal: false };
}

export async function renameWorkspace(workspaceId: string, name: string): Promise<void> {
  await db().workspace.update({ where: { id: workspaceId }, data: { name: workspaceNameSchema.parse(name) } });
}

/** Deletes a shared workspace and everything in it; a personal one goes only with its account. */
export async function deleteWorkspace(workspaceId: string): Promise<void> {
  const ws = await db().workspace.findUnique({ where: { id: workspaceId }, select: { personalOf: true } });
  if (!ws) throw notFound("Workspace not found");
  if (ws.personalOf) throw new AppError("conflict", "A personal workspace goes only with its account.");
  const members = await db().membership.findMany({ where: { workspaceId }, select: { userId: true } });
  await db().workspace.delete({ where: { id: workspaceId } });
  for (const m of members) await publishRevocation({ kind: "member", userId: m.userId, workspaceId });
}

export async function workspaceName(workspaceId: string): Promise<string | null> {
  return (await db().workspace.findUnique({ where: { id: workspaceId }, select: { name: true } }))?.name ?? null;
}

export async function listMembers(workspaceId: string): Promise<MemberView[]> {
  const rows = await db().membership.findMany({
    where: { workspaceId },
    orderBy: { createdAt: "asc" },
    select: { userId: true, role: true, createdAt: true, user: { select: { name: true, email: true } } },
  });
  return rows.map((r) => ({
    userId: r.userId,
    name: r.user.name,
    email: r.user.email,
    role: r.role as Role,
    joinedAt: r.createdAt,
  }));
}

/** Refuses a change that would leave the workspace without an owner. */
async function keepAnOwner(workspaceId: string, userId: string): Promise<void> {
  const owners = await db().membership.findMany({ where: { workspaceId, role: "owner" }, select: { userId: true } });
  if (owners.length === 1 && owners[0]?.userId === userId) {
    throw new AppError("conflict", "A workspace keeps at least one owner: make another member owner first.");
  }
}

/** Changes a member's role; their open streams re-check at once. */
export async function setMemberRole(workspaceId: string, userId: string, role: Role): Promise<void> {
  const current = await roleIn(userId, workspaceId);
  if (!current) throw notFound("Member not found");
  if (current === "owner" && role !== "owner") await keepAnOwner(workspaceId, userId);
  await db().membership.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { role } });
  await publishRevocation({ kind: "member", userId, workspaceId });
}

/**
 * Removes a member: from the next request on they reach nothing of the workspace, their API tokens
 * for it stop working (tokens act with their maker's membership) and their open streams close.
 */
export async function removeMember(workspaceId: string, userId: string): Promise<void> {
  const ws = await db().workspace.findUnique({ where: { id: workspaceId }, select: { personalOf: true } });
  if (ws?.personalOf === userId) throw new AppError("conflict", "The owner of a personal workspace cannot leave it.");
  if (!(await roleIn(userId, workspaceId))) throw notFound("Member not found");
  await keepAnOwner(workspaceId, userId);
  await db().$transaction([
    db().membership.delete({ where: { workspaceId_userId: { workspaceId, userId } } }),
    db().apiToken.updateMany({ where: { workspaceId, userId, revokedAt: null }, data: { revokedAt: new Date() } }),
  ]);
  await publishRevocation({ kind: "member", userId, workspaceId });
}

// ---------- invitations ----------

/** Longest an invitation link may live: 30 days (default 7). */
export const INVITATION_MAX_HOURS = 24 * 30;

export const invitationInputSchema = z.object({
  role: roleSchema,
  expiresInHours: z.coerce
    .number()
    .int()
    .min(1)
    .max(INVITATION_MAX_HOURS)
    .default(24 * 7),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .email("Enter an email address, or leave it empty")
    .max(254)
    .optional()
    .or(z.literal("").transform(() => undefined)),
});
export type InvitationInput = z.input<typeof invitationInputSchema>;

export interface InvitationView {
  id: string;
  role: Role;
  email: string | null;
  expiresAt: Date;
  createdAt: Date;
}

const hashInvitation = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

/** Makes an invitation; `token` (for the link /invite/<token>) is shown once and only its hash stored. */
export async function createInvitation(
  workspaceId: string,
  createdById: string,
  input: InvitationInput,
): Promise<InvitationView & { token: string }> {
  const parsed = invitationInputSchema.parse(input);
  const token = randomBytes(32).toString("base64url");
  const row = await db().invitation.create({
    data: {
      workspaceId,
      createdById,
      role: parsed.role,
      email: parsed.email ?? null,
      tokenHash: hashInvitation(token),
      expiresAt: new Date(Date.now() + parsed.expiresInHours * 3_600_000),
    },
    select: { id: true, role: true, email: true, expiresAt: true, createdAt: true },
  });
  return { ...row, role: row.role as Role, token };
}

/** Invitations not yet accepted, revoked or expired. */
export async function listOpenInvitations(workspaceId: string): Promise<InvitationView[]> {
  const rows = await db().invitation.findMany({
    where: { workspaceId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { id: true, role: true, email: true, expiresAt: true, createdAt: true },
  });
  return rows.map((r) => ({ ...r, role: r.role as Role }));
}

export async function revokeInvitation(workspaceId: string, id: string): Promise<boolean> {
  const { count } = await db().invitation.updateMany({
    where: { id, workspaceId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count === 1;
}

/** What an invitation link offers, or null when it is unknown, used, revoked or expired. */
export async function openInvitation(
  token: string,
): Promise<{ id: string; workspaceId: string; workspaceName: string; role: Role; email: string | null } | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const row = await db().invitation.findUnique({
    where: { tokenHash: hashInvitation(token) },
    select: {
      id: true,
      workspaceId: true,
      role: true,
      email: true,
      acceptedAt: true,
      revokedAt: true,
      expiresAt: true,
      workspace: { select: { name: true } },
    },
  });
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt <= new Date()) return null;
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    workspaceName: row.workspace.name,
    role: row.role as Role,
    email: row.email,
  };
}

/**
 * Accepts an invitation for `user`: they become a member with its role (an existing member keeps the
 * higher of the two). The invitation is spent atomically: two accepts of one link make one member.
 */
export async function acceptInvitation(
  token: string,
  user: { id: string; email: string | null },
): Promise<{ workspaceId: string; role: Role }> {
  const invitation = await openInvitation(token);
  if (!invitation) throw new AppError("not_found", "This invitation is unknown, used, revoked or expired.");
  if (invitation.email && invitation.email !== (user.email ?? "").toLowerCase()) {
    throw new AppError("forbidden", "This invitation is for another email address.");
  }
  return db().$transaction(async (tx) => {
    const spent = await tx.invitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null },
      data: { acceptedAt: new Date(), acceptedBy: user.id },
    });
    if (spent.count !== 1) throw new AppError("conflict", "This invitation was just used.");
    const existing = await tx.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: invitation.workspaceId, userId: user.id } },
      select: { role: true },
    });
    const current = existing && isRole(existing.role) ? existing.role : null;
    const role = current && ROLES.indexOf(current) > ROLES.indexOf(invitation.role) ? current : invitation.role;
    await tx.membership.upsert({
      where: { workspaceId_userId: { workspaceId: invitation.workspaceId, userId: user.id } },
      create: { workspaceId: invitation.workspaceId, userId: user.id, role },
      update: { role },
    });
    return { workspaceId: invitation.workspaceId, role };
  });
}

/**
 * The workspace a signed-in user acts in: `requested` (the switcher's choice) while they are a
 * member of it, else their personal workspace. Null only for a user without any (deleted meanwhile).
 */
export async function activeWorkspace(
  userId: string,
  requested: string | null,
): Promise<{ workspaceId: string; role: Role } | null> {
  if (requested && requested !== userId) {
    const role = await roleIn(userId, requested);
    if (role) return { workspaceId: requested, role };
  }
  const role = await roleIn(userId, userId);
  return role ? { workspaceId: userId, role } : null;
}
