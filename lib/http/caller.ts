import "server-only";
import type { Revocation } from "@/lib/queue/revocations";
import { isApiTokenLive, verifyApiToken } from "@/lib/db/api-tokens";
import type { Actor } from "@/lib/db/audit";
import { activeWorkspace, forbiddenFor, roleIn } from "@/lib/db/workspaces";
import { AppError } from "@/lib/errors";
import { createLogger } from "@/lib/logger";
import { allows, type Role } from "@/lib/roles";
import { routeEntry } from "./permissions";
import { WORKSPACE_COOKIE } from "@/lib/auth/workspace-cookie";

const log = createLogger({ component: "api" });

/**
 * Who is calling a route, and in which workspace with which role: a signed-in browser session (the
 * workspace its switcher chose, else the user's personal one) or a script with an API token (the
 * token's workspace, with its maker's role there as it stands now).
 */
export type Caller = { userId: string; workspaceId: string; role: Role } & (
  { via: "session"; sessionVersion: number } | { via: "token"; tokenId: string; tokenName: string }
);

/** The workspace a session's cookie names, from a request's Cookie header. */
function requestedWorkspace(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === WORKSPACE_COOKIE) return decodeURIComponent(value.join("=")) || null;
  }
  return null;
}

/**
 * Resolves the caller of a route handler. An `Authorization: Bearer <token>` header decides alone
 * (a bad token, or one whose maker left its workspace, is unauthenticated, never a fallback to the
 * cookie); otherwise the Auth.js session. The session module is imported lazily so token-only
 * callers (scripts, tests) never load next-auth.
 */
export async function resolveCaller(request: Request): Promise<Caller | null> {
  const header = request.headers.get("authorization");
  if (header !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) return null;
    const verified = await verifyApiToken(match[1]);
    if (!verified) return null;
    const role = await roleIn(verified.userId, verified.workspaceId);
    return role
      ? {
          userId: verified.userId,
          workspaceId: verified.workspaceId,
          role,
          via: "token",
          tokenId: verified.tokenId,
          tokenName: verified.tokenName,
        }
      : null;
  }
  const { currentUser } = await import("@/lib/auth/session");
  const user = await currentUser();
  if (!user) return null;
  const ws = await activeWorkspace(user.id, requestedWorkspace(request));
  return ws ? { userId: user.id, ...ws, via: "session", sessionVersion: user.sessionVersion } : null;
}

/**
 * The caller of a route, authorised for it: 401 without a credential, 403 when the caller's role
 * lacks the permission lib/http/permissions.ts lists for the request's method and path (and for a
 * route missing from that table: it fails closed).
 */
export async function requireCaller(request: Request): Promise<Caller> {
  const caller = await resolveCaller(request);
  if (!caller) throw new AppError("unauthorized", "Sign in, or send Authorization: Bearer <API token>.");
  const entry = routeEntry(request.method, new URL(request.url).pathname);
  if (!entry) log.error("route without a permission entry refused", { method: request.method, url: request.url });
  // a public route authenticates otherwise and never asks for a member
  if (!entry || entry.permission === "public") throw new AppError("forbidden", "This route has no permission entry.");
  if (!allows(caller.role, entry.permission)) throw forbiddenFor(caller.role, entry.permission);
  return caller;
}

/**
 * Whether a caller's credential still holds: the API token is not revoked, or the session's
 * version is still the user's (no sign-out or password change since), and they are still a member
 * of the workspace (every role may read). For long-lived answers (event streams) that
 * outlive the request that authorised them.
 */
export async function callerStillValid(caller: Caller): Promise<boolean> {
  if (!(await roleIn(caller.userId, caller.workspaceId))) return false;
  if (caller.via === "token") return isApiTokenLive(caller.tokenId);
  const { currentSessionVersion } = await import("@/lib/auth/session-version");
  return (await currentSessionVersion(caller.userId, true)) === caller.sessionVersion;
}

/** Whether a revocation concerns this caller's credential or membership. */
export function revokes(r: Revocation, caller: Caller): boolean {
  if (r.kind === "token") return caller.via === "token" && caller.tokenId === r.tokenId;
  if (r.kind === "member") return r.userId === caller.userId && r.workspaceId === caller.workspaceId;
  return r.userId === caller.userId;
}

/** The caller as the audit log records it. */
export function actorOf(caller: Caller): Actor {
  return {
    workspaceId: caller.workspaceId,
    userId: caller.userId,
    via: caller.via === "token" ? `token:${caller.tokenName}` : "session",
  };
}
