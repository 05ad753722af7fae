import "server-only";
import { verifyApiToken } from "@/lib/db/api-tokens";
import { AppError } from "@/lib/errors";

/** Who is calling a route: a signed-in browser session or a script with an API token. */
export type Caller = { userId: string; via: "session" } | { userId: string; via: "token"; tokenId: string; tokenName: string };

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
    return verified ? { userId: verified.ownerId, via: "token", tokenId: verified.tokenId, tokenName: verified.tokenName } : null;
  }
  const { currentUser } = await import("@/lib/auth/session");
  const user = await currentUser();
  return user ? { userId: user.id, via: "session" } : null;
}

/** resolveCaller, or AppError("unauthorized") (HTTP 401). */
export async function requireCaller(request: Request): Promise<Caller> {
  const caller = await resolveCaller(request);
  if (!caller) throw new AppError("unauthorized", "Sign in, or send Authorization: Bearer <API token>.");
  return caller;
}
