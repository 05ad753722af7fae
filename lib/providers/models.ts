import "server-only";
import { createHash } from "node:crypto";
import * as z from "zod";
import { providerFetch } from "@/lib/llm/provider-fetch";
import type { ModelConfig } from "@/lib/llm/models";
import { ownerModelResolver } from "./resolver";

const modelsResponse = z.object({ data: z.array(z.object({ id: z.string().min(1).max(300) })) });

/** Largest /models answer read (a list of model ids). */
const MAX_MODELS_BYTES = 1_048_576;

/**
 * What is answered for EVERY target that could not be talked to: refused by the guard, unknown
 * host, refused or reset connection, TLS failure, no answer in time. One message for all, so the
 * answer cannot map hosts and ports.
 */
export const UNREACHABLE =
  "Could not reach the endpoint. Check the base URL (private and loopback addresses work only where the operator allows them).";

/** A provider's model list, or what went wrong (by status only, never the endpoint's own words). */
export type ModelList = { ok: true; models: string[] } | { ok: false; message: string };

async function readCapped(res: Response): Promise<unknown> {
  const reader = res.body?.getReader();
  if (!reader) return null;
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if ((size += value.byteLength) > MAX_MODELS_BYTES) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    parts.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(parts).toString("utf8")) as unknown;
  } catch {
    return null;
  }
}

/**
 * GET {baseUrl}/models with the key, through the same guard as the provider's model calls (the
 * address pinned, no redirects, 5 s) unless the endpoint is the operator's own (`guarded` false:
 * the environment's provider or the scripted model, which model calls reach without the guard too).
 * Model ids sorted, duplicates dropped.
 */
export async function fetchModelList(baseUrl: string, apiKey: string | null, guarded = true): Promise<ModelList> {
  let res: Response;
  try {
    res = await (guarded ? providerFetch : fetch)(`${baseUrl.replace(/\/+$/, "")}/models`, {
      redirect: "manual",
      headers: { accept: "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    return { ok: false, message: UNREACHABLE };
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    return {
      ok: false,
      message: `The endpoint answered with a redirect (HTTP ${res.status}); enter the URL it redirects to.`,
    };
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    return { ok: false, message: `The endpoint refused the key (HTTP ${res.status}).` };
  }
  if (!res.ok) {
    await res.body?.cancel();
    return { ok: false, message: `The endpoint answered HTTP ${res.status}.` };
  }
  const body = modelsResponse.safeParse(await readCapped(res).catch(() => null));
  if (!body.success)
    return { ok: false, message: "Connected, but /models did not answer like an OpenAI-compatible API." };
  return { ok: true, models: [...new Set(body.data.data.map((m) => m.id))].sort() };
}

/** How long a model list is kept per owner and provider (the picker's refresh asks again). */
export const MODEL_LIST_TTL_MS = 10 * 60_000;

type Kept = { at: number; list: Promise<ModelList & { defaultModel: string }> };
const kept = new Map<string, Kept>();
const MAX_KEPT = 1000;

/**
 * The models a provider of the owner offers, for the model picker: `provider` null = the owner's
 * default (what an agent without a model uses), else one of their providers by id or name. Kept
 * 10 minutes per owner, endpoint and key; `refresh` asks again. A failed list is not kept.
 */
export async function listModels(
  workspaceId: string,
  provider: string | null,
  options: { refresh?: boolean } = {},
): Promise<ModelList & { defaultModel: string; cached: boolean }> {
  const config: ModelConfig = await ownerModelResolver(workspaceId)(provider ? { provider, model: "" } : null);
  // one list per endpoint and key, however the provider was named (id or name, or the default chain)
  const key = `${workspaceId}\n${config.baseURL}\n${createHash("sha256")
    .update(config.apiKey ?? "")
    .digest("hex")}`;
  const hit = kept.get(key);
  if (hit && !options.refresh && Date.now() - hit.at < MODEL_LIST_TTL_MS) return { ...(await hit.list), cached: true };
  const list = fetchModelList(config.baseURL, config.apiKey ?? null, config.userEndpoint === true).then((l) => ({
    ...l,
    defaultModel: config.model,
  }));
  kept.delete(key);
  kept.set(key, { at: Date.now(), list });
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  const answer = await list;
  if (!answer.ok) kept.delete(key);
  return { ...answer, cached: false };
}
