import "server-only";
import {
  insertProvider,
  patchProvider,
  providerInputSchema,
  providerPatchSchema,
  type ProviderInput,
  type ProviderPatch,
  type ProviderView,
} from "@/lib/db/providers";
import { AppError } from "@/lib/errors";
import { PROVIDER_ADDRESS_REFUSED, providersMayReachPrivate } from "@/lib/llm/provider-fetch";
import { checkTarget, NetRefusedError } from "@/lib/net";

/**
 * Refuses a base URL the guard refuses (lib/net): credentials in the URL, and — unless the
 * operator allows it (WEFT_PROVIDER_ALLOW_PRIVATE) — a private, loopback or link-local address, or
 * a name that resolves to one (a stored key must never go to the server's own network). The address
 * is checked again, and pinned, on every call (lib/llm/provider-fetch.ts). 400 naming the field.
 */
export async function checkProviderUrl(url: string, allowPrivate: boolean = providersMayReachPrivate()): Promise<void> {
  // with private addresses allowed only the URL's form is checked: no name needs to resolve yet
  const resolver = allowPrivate ? async () => [{ address: "192.0.2.1", family: 4 }] : undefined;
  try {
    await checkTarget(url, { allowPrivate, ...(resolver ? { resolver } : {}) });
  } catch (err) {
    if (!(err instanceof NetRefusedError)) throw err;
    const message =
      err.stage === "address"
        ? PROVIDER_ADDRESS_REFUSED
        : err.stage === "resolve"
          ? "The base URL's host name does not resolve; check it."
          : `The base URL is not allowed: ${err.message}.`;
    throw new AppError("bad_request", message, { field: "baseUrl" });
  }
}

/** Saves a new provider of the owner's after its base URL passed checkProviderUrl. */
export async function createProvider(workspaceId: string, input: ProviderInput): Promise<ProviderView> {
  const data = providerInputSchema.parse(input);
  await checkProviderUrl(data.baseUrl);
  return insertProvider(workspaceId, data);
}

/** Changes the owner's provider (a new base URL checked first); null when it is not theirs. */
export async function updateProvider(
  workspaceId: string,
  id: string,
  patch: ProviderPatch,
): Promise<ProviderView | null> {
  const changes = providerPatchSchema.parse(patch);
  if (changes.baseUrl !== undefined) await checkProviderUrl(changes.baseUrl);
  return patchProvider(workspaceId, id, changes);
}
