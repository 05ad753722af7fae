import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { activeWorkspace, forbiddenFor } from "@/lib/db/workspaces";
import { WORKSPACE_COOKIE } from "@/lib/auth/workspace-cookie";
import { allows, type Permission, type Role } from "@/lib/roles";
import { currentUser, type SessionUser } from "./session";

/** A signed-in member acting in one workspace (pages and server actions; routes use lib/http/caller.ts). */
export interface Access {
  user: SessionUser;
  userId: string;
  workspaceId: string;
  role: Role;
  /** how they act, as the audit log records it */
  via: "session";
}

/**
 * The signed-in user in the workspace their switcher chose (else their personal one), or null. Read
 * once per request (the layout and the page share it), never kept longer: a removed member's next
 * request already finds no role.
 */
export const currentAccess = cache(async function currentAccess(): Promise<Access | null> {
  const user = await currentUser();
  if (!user) return null;
  const requested = (await cookies()).get(WORKSPACE_COOKIE)?.value ?? null;
  const ws = await activeWorkspace(user.id, requested);
  return ws ? { user, userId: user.id, ...ws, via: "session" } : null;
});

/**
 * The current member, when their role holds `permission`: signed out redirects to /sign-in (with a
 * return path, default none); a role that falls short throws forbidden (403), naming both.
 */
export async function requireAccess(permission: Permission, returnTo?: string): Promise<Access> {
  const access = await currentAccess();
  if (!access) redirect(returnTo ? `/sign-in?callbackUrl=${encodeURIComponent(returnTo)}` : "/sign-in");
  if (!allows(access.role, permission)) throw forbiddenFor(access.role, permission);
  return access;
}

/** Makes `workspaceId` the one this browser acts in from its next request (the switcher's cookie). */
export async function chooseWorkspace(workspaceId: string): Promise<void> {
  (await cookies()).set(WORKSPACE_COOKIE, workspaceId, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 400 * 86_400,
  });
}
