"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import * as z from "zod";
import type { FormResult } from "@/components/settings/types";
import { chooseWorkspace, requireAccess, type Access } from "@/lib/auth/access";
import { recordAudit } from "@/lib/db/audit";
import {
  createInvitation,
  createWorkspace,
  deleteWorkspace,
  invitationInputSchema,
  removeMember,
  renameWorkspace,
  revokeInvitation,
  roleSchema,
  setMemberRole,
  workspaceNameSchema,
} from "@/lib/db/workspaces";
import { AppError } from "@/lib/errors";

/** Result of "Invite": the link is in this answer only (its token is stored hashed). */
export type InviteResult = FormResult | { status: "ok"; message: string; link: string };

const idSchema = z.string().min(1).max(100);
const PAGE = "/settings/workspace";

const refusal = (err: unknown): FormResult => {
  if (err instanceof AppError) return { status: "error", message: err.message };
  if (err instanceof z.ZodError) return { status: "error", message: err.issues[0]?.message ?? "Invalid input." };
  throw err;
};

/** The switcher: acts in another of the user's workspaces from the next request on. */
export async function switchWorkspaceAction(form: FormData): Promise<void> {
  await requireAccess("read");
  const id = idSchema.safeParse(form.get("workspaceId"));
  if (id.success) await chooseWorkspace(id.data);
  redirect("/workflows");
}

/** A new shared workspace, its maker the owner; the switcher moves to it. */
export async function createWorkspaceAction(_prev: FormResult, form: FormData): Promise<FormResult> {
  const access = await requireAccess("read");
  const name = workspaceNameSchema.safeParse(form.get("name") ?? "");
  if (!name.success) return { status: "error", fieldErrors: { name: name.error.issues[0]?.message } };
  const ws = await createWorkspace(access.userId, name.data);
  await recordAudit({ ...access, workspaceId: ws.id }, "workspace.created", { type: "workspace", id: ws.id });
  await chooseWorkspace(ws.id);
  redirect(PAGE);
}

export async function renameWorkspaceAction(_prev: FormResult, form: FormData): Promise<FormResult> {
  const access = await requireAccess("manage");
  try {
    await renameWorkspace(access.workspaceId, String(form.get("name") ?? ""));
  } catch (err) {
    return refusal(err);
  }
  await audit(access, "workspace.renamed", "workspace", access.workspaceId);
  revalidatePath("/", "layout");
  return { status: "ok", message: "Workspace renamed." };
}

/** Deletes the current (shared) workspace and everything in it; the switcher returns to the personal one. */
export async function deleteWorkspaceAction(): Promise<FormResult> {
  const access = await requireAccess("manage");
  try {
    await deleteWorkspace(access.workspaceId);
  } catch (err) {
    return refusal(err);
  }
  await chooseWorkspace(access.userId);
  redirect("/workflows");
}

export async function inviteAction(_prev: InviteResult, form: FormData): Promise<InviteResult> {
  const access = await requireAccess("manage");
  const parsed = invitationInputSchema.safeParse({
    role: form.get("role"),
    expiresInHours: form.get("expiresInHours") ?? undefined,
    email: form.get("email") ?? undefined,
  });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "Invalid invitation." };
  const made = await createInvitation(access.workspaceId, access.userId, parsed.data);
  await audit(access, "member.invited", "invitation", made.id, { role: made.role, email: made.email });
  revalidatePath(PAGE);
  return { status: "ok", message: `Invitation for a ${made.role} made.`, link: `/invite/${made.token}` };
}

export async function revokeInvitationAction(id: string): Promise<FormResult> {
  const access = await requireAccess("manage");
  const ok = await revokeInvitation(access.workspaceId, idSchema.parse(id));
  revalidatePath(PAGE);
  return ok ? { status: "ok", message: "Invitation revoked." } : { status: "error", message: "Invitation not found." };
}

export async function setMemberRoleAction(userId: string, role: string): Promise<FormResult> {
  const access = await requireAccess("manage");
  try {
    const parsedRole = roleSchema.parse(role);
    await setMemberRole(access.workspaceId, idSchema.parse(userId), parsedRole);
    await audit(access, "member.role_changed", "user", userId, { role: parsedRole });
  } catch (err) {
    return refusal(err);
  }
  revalidatePath(PAGE);
  return { status: "ok", message: `Role changed to ${role}.` };
}

/** Removes a member: from their next request on they reach nothing of this workspace. */
export async function removeMemberAction(userId: string): Promise<FormResult> {
  const access = await requireAccess("manage");
  try {
    await removeMember(access.workspaceId, idSchema.parse(userId));
    await audit(access, "member.removed", "user", userId);
  } catch (err) {
    return refusal(err);
  }
  revalidatePath(PAGE);
  return { status: "ok", message: "Member removed." };
}

/** Leaves the current (shared) workspace; the switcher returns to the personal one. */
export async function leaveWorkspaceAction(): Promise<FormResult> {
  const access = await requireAccess("read");
  try {
    await removeMember(access.workspaceId, access.userId);
    await audit(access, "member.removed", "user", access.userId, { left: true });
  } catch (err) {
    return refusal(err);
  }
  await chooseWorkspace(access.userId);
  redirect("/workflows");
}

function audit(access: Access, action: Parameters<typeof recordAudit>[1], type: string, id: string, details = {}) {
  return recordAudit(access, action, { type, id }, details);
}
