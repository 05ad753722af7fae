import "server-only";
import { bumpSessionVersion, sessionVersionOf, updatePassword } from "@/lib/db/users";
import { onRevocation, publishRevocation } from "@/lib/queue/revocations";

/**
 * Session versions (finding: a signed-out cookie kept working for its 30 days). Every session JWT
 * carries the user's `sessionVersion` from when it was made; sign-out and a password change bump
 * the row's, and the JWT callback refuses a token whose version is not the current one. Versions
 * are read through a per-process cache of 2 s, dropped at once in every process when a bump is
 * published (revocations.ts), so a signed-out cookie stops working everywhere within moments.
 */
const TTL_MS = 2_000;
const MAX_CACHED = 10_000;
const cache = new Map<string, { version: number | null; at: number }>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  onRevocation((r) => {
    if (r.kind === "user") cache.delete(r.userId);
  });
}

/** The user's current session version (null: no such user); `fresh` skips the cache. */
export async function currentSessionVersion(userId: string, fresh = false): Promise<number | null> {
  listen();
  const hit = cache.get(userId);
  if (!fresh && hit && Date.now() - hit.at < TTL_MS) return hit.version;
  const version = await sessionVersionOf(userId);
  cache.set(userId, { version, at: Date.now() });
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return version;
}

/** Ends every session of the user: bumps the version, and tells every process (open streams close, caches drop). */
export async function endAllSessions(userId: string): Promise<void> {
  await bumpSessionVersion(userId);
  cache.delete(userId);
  await publishRevocation({ kind: "user", userId });
}

/** Changes the user's password (the current one checked) and ends every session of theirs, in every process. */
export async function changePassword(userId: string, input: Parameters<typeof updatePassword>[1]): Promise<void> {
  await updatePassword(userId, input);
  cache.delete(userId);
  await publishRevocation({ kind: "user", userId });
}

/**
 * The JWT callback's check: a fresh sign-in stamps the user's current version into the token; any
 * later use of the token is refused (null) when the user is gone or the version moved on. Tokens
 * made before versions existed carry none and count as version 0.
 */
export async function checkSessionToken<T extends { sub?: string; sv?: unknown }>(
  token: T,
  signedIn?: { id?: string },
): Promise<T | null> {
  if (signedIn?.id) {
    const version = await currentSessionVersion(signedIn.id, true);
    return version === null ? null : { ...token, sub: signedIn.id, sv: version };
  }
  if (!token.sub) return token;
  const version = await currentSessionVersion(token.sub);
  const carried = typeof token.sv === "number" ? token.sv : 0;
  return version !== null && version === carried ? token : null;
}
