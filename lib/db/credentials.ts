import "server-only";
import { randomUUID } from "node:crypto";
import * as z from "zod";
import { keyring } from "@/lib/crypto/keyring";
import { decryptSecret, encryptSecret, lastFour } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/** How a credential is sent: `Authorization: Bearer <value>`, `Authorization: Basic <base64 user:password>`, or `<headerName>: <value>`. */
export const credentialKinds = ["bearer", "basic", "header"] as const;
export type CredentialKind = (typeof credentialKinds)[number];

/** A credential as the browser sees it: never its value, only the last four characters. */
export interface CredentialView {
  id: string;
  name: string;
  kind: CredentialKind;
  headerName: string | null;
  last4: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Names are what tools and servers refer to: a letter, then letters, digits, `_` or `-`. */
export const credentialNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, "A letter, then letters, digits, _ or - (at most 64)");

/** HTTP header names (RFC 9110 tokens), without the ones a credential must not set. */
const headerNameSchema = z
  .string()
  .trim()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, "Enter a header name, e.g. X-API-Key")
  .refine((h) => !/^(host|content-length|content-type|transfer-encoding|connection|cookie)$/i.test(h), {
    message: "This header cannot carry a credential",
  });

/** What a person saves: the value is checked for what a header may carry (no line breaks). */
export const credentialInputSchema = z
  .object({
    name: credentialNameSchema,
    kind: z.enum(credentialKinds),
    headerName: headerNameSchema.optional(),
    value: z
      .string()
      .min(1, "Enter the secret")
      .max(4000, "At most 4,000 characters")
      .refine((v) => !/[\r\n\0]/.test(v), { message: "A secret cannot hold line breaks" }),
  })
  .superRefine((c, ctx) => {
    if (c.kind === "header" && !c.headerName)
      ctx.addIssue({ code: "custom", path: ["headerName"], message: "Enter the header it is sent as" });
    if (c.kind === "basic" && !c.value.includes(":"))
      ctx.addIssue({ code: "custom", path: ["value"], message: "Enter user:password" });
  });
export type CredentialInput = z.input<typeof credentialInputSchema>;

const aad = (id: string, workspaceId: string) => `credential:${id}:${workspaceId}`;

const view = {
  id: true,
  name: true,
  kind: true,
  headerName: true,
  last4: true,
  createdAt: true,
  updatedAt: true,
} as const;

const asView = (row: Omit<CredentialView, "kind"> & { kind: string }): CredentialView => ({
  ...row,
  kind: row.kind as CredentialKind,
});

/** The owner's credentials, by name (values never included). */
export async function listCredentials(workspaceId: string): Promise<CredentialView[]> {
  const rows = await db().credential.findMany({ where: { workspaceId }, select: view, orderBy: { name: "asc" } });
  return rows.map(asView);
}

/**
 * Saves a credential, encrypted with AAD `credential:<id>:<workspaceId>`. Saving under an existing name
 * replaces that credential's value (rotation): what refers to it by name uses the new value from its
 * next connection, with no new approval.
 */
export async function saveCredential(workspaceId: string, input: CredentialInput): Promise<CredentialView> {
  const c = credentialInputSchema.parse(input);
  const existing = await db().credential.findUnique({ where: { workspaceId_name: { workspaceId, name: c.name } } });
  const id = existing?.id ?? randomUUID();
  const ring = keyring();
  const data = {
    kind: c.kind,
    headerName: c.kind === "header" ? (c.headerName ?? null) : null,
    cipher: encryptSecret(ring, c.value, aad(id, workspaceId)),
    keyId: ring.currentId,
    last4: lastFour(c.value),
  };
  try {
    const row = existing
      ? await db().credential.update({ where: { id }, data, select: view })
      : await db().credential.create({ data: { id, workspaceId, name: c.name, ...data }, select: view });
    return asView(row);
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")
      throw new AppError("conflict", "A credential with this name was just saved; try again.");
    throw err;
  }
}

/** Deletes the owner's credential; false when it is not theirs. */
export async function deleteCredential(workspaceId: string, id: string): Promise<boolean> {
  return (await db().credential.deleteMany({ where: { id, workspaceId } })).count > 0;
}

/**
 * Server-only: the headers a credential is sent as, decrypted here (a connection's last step).
 * Unknown names are a not-found error naming the credential, never its value.
 */
export async function credentialHeaders(workspaceId: string, name: string): Promise<Record<string, string>> {
  const row = await db().credential.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  if (!row) throw notFound(`Credential "${name}" is not in your vault.`);
  const value = decryptSecret(keyring(), row.cipher, aad(row.id, workspaceId));
  if (row.kind === "bearer") return { authorization: `Bearer ${value}` };
  if (row.kind === "basic") return { authorization: `Basic ${Buffer.from(value).toString("base64")}` };
  return { [row.headerName ?? "x-api-key"]: value };
}
