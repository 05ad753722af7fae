import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { publishRevocation } from "@/lib/queue/revocations";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/** Prefix of every API token, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = "weft_";

/** An API token as lists show it: never the secret, only its last four characters. */
export interface ApiTokenView {
  id: string;
  name: string;
  lastFour: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A freshly created token: `token` is shown once and never stored (only its SHA-256 hash is). */
export interface CreatedApiToken extends ApiTokenView {
  token: string;
}

export const apiTokenNameSchema = z.string().trim().min(1, "Enter a name").max(80, "At most 80 characters");

const view = { id: true, name: true, lastFour: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

/** SHA-256 hex of a token: what is stored and looked up (a fast hash is fine for 256-bit random secrets). */
export const hashApiToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

/** Live (not revoked) tokens one user may hold: enough for every script, few enough to review. */
export const MAX_LIVE_API_TOKENS = 25;

/**
 * Creates a token for scripts calling the REST API and the MCP endpoint (`Authorization: Bearer
 * <token>`). Refuses (conflict) a user who already holds MAX_LIVE_API_TOKENS live ones.
 */
export async function createApiToken(ownerId: string, name: string): Promise<CreatedApiToken> {
  const parsedName = apiTokenNameSchema.parse(name);
  const live = await db().apiToken.count({ where: { ownerId, revokedAt: null } });
  if (live >= MAX_LIVE_API_TOKENS) {
    throw new AppError(
      "conflict",
      `You already have ${MAX_LIVE_API_TOKENS} live tokens: revoke one you no longer use first.`,
    );
  }
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await db().apiToken.create({
    data: { ownerId, name: parsedName, tokenHash: hashApiToken(token), lastFour: token.slice(-4) },
    select: view,
  });
  return { ...row, token };
}

/** The owner's tokens, newest first (revoked ones included, marked). */
export async function listApiTokens(ownerId: string): Promise<ApiTokenView[]> {
  return db().apiToken.findMany({ where: { ownerId }, orderBy: { createdAt: "desc" }, select: view });
}

/**
 * Revokes one of the owner's tokens; false when it is not theirs, unknown or already revoked. Every
 * process is told, so event streams opened with the token close at once.
 */
export async function revokeApiToken(ownerId: string, id: string): Promise<boolean> {
  const { count } = await db().apiToken.updateMany({
    where: { id, ownerId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 1) await publishRevocation({ kind: "token", tokenId: id });
  return count === 1;
}

/** True while the token exists and is not revoked (what an open event stream re-checks). */
export async function isApiTokenLive(id: string): Promise<boolean> {
  return (await db().apiToken.count({ where: { id, revokedAt: null } })) === 1;
}

/** How often lastUsedAt is refreshed at most (a write per request would be wasteful), 60 s. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The owner of a live (not revoked) token, or null. Malformed input is null, never an error.
 * Refreshes lastUsedAt at most once a minute.
 */
export async function verifyApiToken(
  token: string,
): Promise<{ ownerId: string; tokenId: string; tokenName: string } | null> {
  if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) return null;
  const row = await db().apiToken.findUnique({
    where: { tokenHash: hashApiToken(token) },
    select: { id: true, ownerId: true, name: true, revokedAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt) return null;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db().apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  return { ownerId: row.ownerId, tokenId: row.id, tokenName: row.name };
}
