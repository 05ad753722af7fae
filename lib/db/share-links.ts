import "server-only";
import { createHash, randomBytes } from "node:crypto";
import * as z from "zod";
import { db } from "@/lib/db/client";

/** Expiry choices of a share link (1 hour, 1 day, 7 days). */
export const shareExpiries = { "1h": 3_600_000, "1d": 86_400_000, "7d": 7 * 86_400_000 } as const;
export type ShareExpiry = keyof typeof shareExpiries;

/** Body of "create a share link": expiry (default 1 day) and whether prompts/outputs are shown (default no). */
export const createShareSchema = z.object({
  expiresIn: z.enum(["1h", "1d", "7d"]).default("1d"),
  includeContent: z.boolean().default(false),
});
export type CreateShareInput = z.input<typeof createShareSchema>;

/** A share link as its owner lists it: never the token, which exists only in the URL handed out once. */
export interface ShareLinkView {
  id: string;
  runId: string;
  includeContent: boolean;
  expiresAt: Date;
  revokedAt: Date | null;
  createdAt: Date;
  /** Not revoked and not expired. */
  active: boolean;
}

/** What a valid token unlocks: one run, read-only, with or without content. */
export interface ShareGrant {
  linkId: string;
  runId: string;
  includeContent: boolean;
  expiresAt: Date;
}

/** A share token: 32 random bytes (256 bits) as base64url, 43 characters. */
export const shareTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** SHA-256 hex of a token: the only form stored (a fast hash suffices for 256-bit random secrets). */
export const hashShareToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

const viewSelect = {
  id: true,
  runId: true,
  includeContent: true,
  expiresAt: true,
  revokedAt: true,
  createdAt: true,
} as const;

const toView = (row: Omit<ShareLinkView, "active">, now = Date.now()): ShareLinkView => ({
  ...row,
  active: row.revokedAt === null && row.expiresAt.getTime() > now,
});

/**
 * Creates a share link for one of the owner's runs; returns the token once (null when the run is not
 * the owner's: the caller answers 404).
 */
export async function createShareLink(
  workspaceId: string,
  runId: string,
  input: CreateShareInput = {},
): Promise<{ token: string; link: ShareLinkView } | null> {
  const opts = createShareSchema.parse(input);
  const owned = await db().run.count({ where: { id: runId, workspaceId } });
  if (owned !== 1) return null;
  const token = randomBytes(32).toString("base64url");
  const row = await db().shareLink.create({
    data: {
      runId,
      workspaceId,
      tokenHash: hashShareToken(token),
      includeContent: opts.includeContent,
      expiresAt: new Date(Date.now() + shareExpiries[opts.expiresIn]),
    },
    select: viewSelect,
  });
  return { token, link: toView(row) };
}

/** The owner's links of one run, newest first (another user's run lists nothing). */
export async function listShareLinks(workspaceId: string, runId: string): Promise<ShareLinkView[]> {
  const rows = await db().shareLink.findMany({
    where: { workspaceId, runId },
    orderBy: { createdAt: "desc" },
    select: viewSelect,
  });
  const now = Date.now();
  return rows.map((r) => toView(r, now));
}

/** Revokes one of the owner's links (idempotent); false when it is not theirs. */
export async function revokeShareLink(workspaceId: string, linkId: string): Promise<boolean> {
  const link = await db().shareLink.findFirst({ where: { id: linkId, workspaceId }, select: { revokedAt: true } });
  if (!link) return false;
  if (!link.revokedAt) await db().shareLink.update({ where: { id: linkId }, data: { revokedAt: new Date() } });
  return true;
}

/** The grant of a token, or null when malformed, unknown, revoked or expired. */
export async function resolveShareToken(token: string): Promise<ShareGrant | null> {
  if (!shareTokenSchema.safeParse(token).success) return null;
  const row = await db().shareLink.findUnique({
    where: { tokenHash: hashShareToken(token) },
    select: { id: true, runId: true, includeContent: true, expiresAt: true, revokedAt: true },
  });
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
  return { linkId: row.id, runId: row.runId, includeContent: row.includeContent, expiresAt: row.expiresAt };
}

/** True while the link is neither revoked nor expired (the share stream re-checks this, S4). */
export async function isShareLinkActive(linkId: string): Promise<boolean> {
  const row = await db().shareLink.findUnique({ where: { id: linkId }, select: { expiresAt: true, revokedAt: true } });
  return Boolean(row && !row.revokedAt && row.expiresAt.getTime() > Date.now());
}
