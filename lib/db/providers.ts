import "server-only";
import { randomUUID } from "node:crypto";
import * as z from "zod";
import { keyring } from "@/lib/crypto/keyring";
import { decryptSecret, encryptSecret, lastFour } from "@/lib/crypto/secrets";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/** A provider as the UI sees it: the key is reduced to its last four characters. */
export interface ProviderView {
  id: string;
  name: string;
  baseUrl: string;
  defaultModel: string;
  apiKeyLast4: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Server-only connection details, with the decrypted key. Never send this to a client. */
export interface ProviderSecret {
  id: string;
  name: string;
  baseUrl: string;
  defaultModel: string;
  apiKey: string | null;
}

const view = {
  id: true,
  name: true,
  baseUrl: true,
  defaultModel: true,
  apiKeyLast4: true,
  createdAt: true,
  updatedAt: true,
} as const;

const baseUrl = z
  .url({ protocol: /^https?$/, error: "Enter an http(s) URL, e.g. https://api.openai.com/v1" })
  .trim()
  .transform((u) => u.replace(/\/+$/, ""));

/** Create input; `apiKey` is optional (local servers such as Ollama need none). */
export const providerInputSchema = z.object({
  name: z.string().trim().min(1, "Enter a name").max(60, "At most 60 characters"),
  baseUrl,
  defaultModel: z.string().trim().min(1, "Enter a model name").max(200),
  apiKey: z.string().trim().max(500).optional(),
});
export type ProviderInput = z.input<typeof providerInputSchema>;

/** Update input: omitted fields stay; `apiKey` undefined keeps the key, null removes it, a string replaces it. */
export const providerPatchSchema = providerInputSchema
  .partial()
  .extend({ apiKey: z.string().trim().max(500).nullable().optional() });
export type ProviderPatch = z.input<typeof providerPatchSchema>;

/** The associated data binding a ciphertext to its row and owner. */
export const providerAad = (id: string, workspaceId: string): string => `provider:${id}:${workspaceId}`;

function keyFields(id: string, workspaceId: string, apiKey: string | null | undefined) {
  if (apiKey === undefined) return {};
  if (apiKey === null || apiKey === "") return { apiKeyCipher: null, apiKeyKeyId: null, apiKeyLast4: null };
  const ring = keyring();
  return {
    apiKeyCipher: encryptSecret(ring, apiKey, providerAad(id, workspaceId)),
    apiKeyKeyId: ring.currentId,
    apiKeyLast4: lastFour(apiKey),
  };
}

function conflict(err: unknown): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
    throw new AppError("conflict", "You already have a provider with this name.");
  }
  throw err;
}

/** The owner's providers, by name. */
export async function listProviders(workspaceId: string): Promise<ProviderView[]> {
  return db().modelProvider.findMany({ where: { workspaceId }, select: view, orderBy: { name: "asc" } });
}

/** One of the owner's providers, or null (also for another user's id). */
export async function getProvider(workspaceId: string, id: string): Promise<ProviderView | null> {
  return db().modelProvider.findFirst({ where: { id, workspaceId }, select: view });
}

/**
 * Stores a provider; the key is encrypted with AAD `provider:<id>:<workspaceId>` before it is stored. Its
 * base URL is not checked here: lib/providers/settings.ts `createProvider` checks it first.
 */
export async function insertProvider(workspaceId: string, input: ProviderInput): Promise<ProviderView> {
  const data = providerInputSchema.parse(input);
  const id = randomUUID();
  return db()
    .modelProvider.create({
      data: {
        id,
        workspaceId,
        name: data.name,
        baseUrl: data.baseUrl,
        defaultModel: data.defaultModel,
        ...keyFields(id, workspaceId, data.apiKey),
      },
      select: view,
    })
    .catch(conflict);
}

/** Changes the owner's provider (its base URL unchecked: see insertProvider); null when it is not theirs. */
export async function patchProvider(
  workspaceId: string,
  id: string,
  patch: ProviderPatch,
): Promise<ProviderView | null> {
  const { apiKey, ...rest } = providerPatchSchema.parse(patch);
  const result = await db()
    .modelProvider.updateMany({ where: { id, workspaceId }, data: { ...rest, ...keyFields(id, workspaceId, apiKey) } })
    .catch(conflict);
  return result.count ? getProvider(workspaceId, id) : null;
}

/** Deletes the owner's provider; false when it is not theirs. Clears it as the designer provider. */
export async function deleteProvider(workspaceId: string, id: string): Promise<boolean> {
  const result = await db().modelProvider.deleteMany({ where: { id, workspaceId } });
  if (result.count) {
    await db().userSettings.updateMany({
      where: { userId: workspaceId, designerProviderId: id },
      data: { designerProviderId: null },
    });
  }
  return result.count > 0;
}

/** Server-only: the provider with its decrypted key (for model calls and "Test connection"). */
export async function getProviderSecret(workspaceId: string, id: string): Promise<ProviderSecret | null> {
  const row = await db().modelProvider.findFirst({ where: { id, workspaceId } });
  if (!row) return null;
  const apiKey = row.apiKeyCipher ? decryptSecret(keyring(), row.apiKeyCipher, providerAad(row.id, workspaceId)) : null;
  return { id: row.id, name: row.name, baseUrl: row.baseUrl, defaultModel: row.defaultModel, apiKey };
}
