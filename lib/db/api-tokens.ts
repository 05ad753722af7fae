import "server-only";
import { createHash, randomBytes } from "node:crypto";
import * as z from "zod";
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

/** Live (not revoked) tokens one member may hold in a workspace: enough for every script, few enough to review. */
export const MAX_LIVE_API_TOKENS = 25;

/**
 * Creates a token for scripts calling the REST API and the MCP endpoint (`Authorization: Bearer
 * <token>`) in one workspace; it acts with its maker's role there, as that role stands at each
 * request. Refuses (conflict) a member who already holds MAX_LIVE_API_TOKENS live ones there.
 */
export async function createApiToken(workspaceId: string, userId: string, name: string): Promise<CreatedApiToken> {
  const parsedName = apiTokenNameSchema.parse(name);
  const live = await db().apiToken.count({ where: { workspaceId, userId, revokedAt: null } });
  if (live >= MAX_LIVE_API_TOKENS) {
    throw new AppError(
      "conflict",
      `You already have ${MAX_LIVE_API_TOKENS} live tokens: revoke one you no longer use first.`,
    );
  }
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await db().apiToken.create({
    data: { workspaceId, userId, name: parsedName, tokenHash: hashApiToken(token), lastFour: token.slice(-4) },
    select: view,
  });
  return { ...row, token };
}

/** A member's tokens in a workspace, newest first (revoked ones included, marked). */
export async function listApiTokens(workspaceId: string, userId: string): Promise<ApiTokenView[]> {
  return db().apiToken.findMany({ where: { workspaceId, userId }, orderBy: { createdAt: "desc" }, select: view });
}

/**
 * Revokes one of a member's tokens in a workspace; false when it is not theirs, unknown or already
 * revoked. Every process is told, so event streams opened with the token close at once.
 */
export async function revokeApiToken(workspaceId: string, userId: string, id: string): Promise<boolean> {
  const { count } = await db().apiToken.updateMany({
    where: { id, workspaceId, userId, revokedAt: null },
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
 * The workspace and maker of a live (not revoked) token, or null. Malformed input is null, never an
 * error. Refreshes lastUsedAt at most once a minute. What the maker may do there is decided per
 * request (lib/db/workspaces.ts).
 */
export async function verifyApiToken(
  token: string,
): Promise<{ workspaceId: string; userId: string; tokenId: string; tokenName: string } | null> {
  if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) return null;
  const row = await db().apiToken.findUnique({
    where: { tokenHash: hashApiToken(token) },
    select: { id: true, workspaceId: true, userId: true, name: true, revokedAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt) return null;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db().apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  return { workspaceId: row.workspaceId, userId: row.userId, tokenId: row.id, tokenName: row.name };
}
