import "server-only";
import type { Revocation } from "@/lib/queue/revocations";
import { isApiTokenLive, verifyApiToken } from "@/lib/db/api-tokens";
import { AppError } from "@/lib/errors";

/** Who is calling a route: a signed-in browser session or a script with an API token. */
export type Caller =
  | { userId: string; via: "session"; sessionVersion: number }
  | { userId: string; via: "token"; tokenId: string; tokenName: string };

/**
 * Resolves the caller of a route handler. An `Authorization: Bearer <token>` header decides alone
 * (a bad token is unauthenticated, never a fallback to the cookie); otherwise the Auth.js session.
 * The session module is imported lazily so token-only callers (scripts, tests) never load next-auth.
 */
export async function resolveCaller(request: Request): Promise<Caller | null> {
  const header = request.headers.get("authorization");
  if (header !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) return null;
    const verified = await verifyApiToken(match[1]);
    return verified
      ? { userId: verified.ownerId, via: "token", tokenId: verified.tokenId, tokenName: verified.tokenName }
      : null;
  }
  const { currentUser } = await import("@/lib/auth/session");
  const user = await currentUser();
  return user ? { userId: user.id, via: "session", sessionVersion: user.sessionVersion } : null;
}

/** resolveCaller, or AppError("unauthorized") (HTTP 401). */
export async function requireCaller(request: Request): Promise<Caller> {
  const caller = await resolveCaller(request);
  if (!caller) throw new AppError("unauthorized", "Sign in, or send Authorization: Bearer <API token>.");
  return caller;
}

/**
 * Whether a caller's credential still holds: the API token is not revoked, or the session's
 * version is still the user's (no sign-out or password change since). For long-lived answers
 * (event streams) that outlive the request that authorised them.
 */
export async function callerStillValid(caller: Caller): Promise<boolean> {
  if (caller.via === "token") return isApiTokenLive(caller.tokenId);
  const { currentSessionVersion } = await import("@/lib/auth/session-version");
  return (await currentSessionVersion(caller.userId, true)) === caller.sessionVersion;
}

/** Whether a revocation concerns this caller's credential. */
export function revokes(r: Revocation, caller: Caller): boolean {
  return r.kind === "token" ? caller.via === "token" && caller.tokenId === r.tokenId : r.userId === caller.userId;
}
