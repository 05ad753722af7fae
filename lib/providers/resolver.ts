import "server-only";
import { db } from "@/lib/db/client";
import { getProviderSecret } from "@/lib/db/providers";
import { retryTransientDb } from "@/lib/db/transient";
import { ModelCallError } from "@/lib/engine/errors";
import {
  defaultModelConfig,
  isScriptedModel,
  scriptedModelConfig,
  SCRIPTED_MODEL,
  type ModelConfig,
} from "@/lib/llm/models";
import type { ModelRef } from "@/lib/workflow/schema";

/** Turns a node's ModelRef (or null = the owner's default) into a concrete endpoint config. */
export type ModelResolver = (ref: ModelRef | null) => Promise<ModelConfig>;

const envConfigured = (): boolean => Boolean(process.env.OPENAI_BASE_URL || process.env.OPENAI_API_KEY);

/**
 * The resolution order (R10), per run owner; results are cached for the life of the resolver (one job):
 * 1. `ref.provider` names one of the owner's ModelProviders (by id or name) — its API key is
 *    decrypted here, in the worker only; unknown names fail the step with a config error;
 * 2. a model whose name starts with "scripted" → the scripted server (WEFT_SCRIPTED_MODEL_PORT);
 * 3. OPENAI_BASE_URL / OPENAI_API_KEY in the environment → that endpoint with `ref.model`;
 * 4. the owner's most recently updated provider with `ref.model`;
 * 5. the scripted server (offline demo).
 * `null` uses the owner's designer provider/model from settings when set, else the same chain with
 * the provider's (or OPENAI_MODEL's) default model.
 */
export function ownerModelResolver(workspaceId: string): ModelResolver {
  const cache = new Map<string, Promise<ModelConfig>>();
  return (ref) => {
    const key = JSON.stringify(ref);
    let hit = cache.get(key);
    if (!hit) {
      // reads only: a transient database failure is retried instead of failing the step
      hit = retryTransientDb(() => resolve(workspaceId, ref));
      cache.set(key, hit);
      hit.catch(() => cache.delete(key));
    }
    return hit;
  };
}

async function resolve(workspaceId: string, ref: ModelRef | null): Promise<ModelConfig> {
  const temperature = ref?.temperature !== undefined ? { temperature: ref.temperature } : {};
  if (ref?.provider) return { ...(await named(workspaceId, ref.provider, ref.model)), ...temperature };
  if (!ref) return ownerDefault(workspaceId);
  if (isScriptedModel(ref)) return { ...scriptedModelConfig(), model: ref.model, ...temperature };
  if (envConfigured()) return { ...defaultModelConfig(), model: ref.model, ...temperature };
  const latest = await db().modelProvider.findFirst({
    where: { workspaceId },
    orderBy: { updatedAt: "desc" },
    select: { id: true },
  });
  if (latest) return { ...(await secretConfig(workspaceId, latest.id, ref.model)), ...temperature };
  return { ...scriptedModelConfig(), model: SCRIPTED_MODEL, ...temperature };
}

async function named(workspaceId: string, provider: string, model: string | undefined): Promise<ModelConfig> {
  const row = await db().modelProvider.findFirst({
    where: { workspaceId, OR: [{ id: provider }, { name: provider }] },
    select: { id: true },
  });
  if (!row)
    throw new ModelCallError(
      "config",
      `No model provider named "${provider}" is configured; add it under Settings → Providers.`,
    );
  return secretConfig(workspaceId, row.id, model);
}

async function secretConfig(workspaceId: string, providerId: string, model: string | undefined): Promise<ModelConfig> {
  const secret = await getProviderSecret(workspaceId, providerId);
  if (!secret) throw new ModelCallError("config", "The model provider no longer exists.");
  // a user's base URL: calls go through the SSRF guard, pinned, no redirects (lib/llm/provider-fetch.ts)
  return {
    baseURL: secret.baseUrl,
    model: model || secret.defaultModel,
    userEndpoint: true,
    ...(secret.apiKey ? { apiKey: secret.apiKey } : {}),
  };
}

async function ownerDefault(workspaceId: string): Promise<ModelConfig> {
  const settings = await db().userSettings.findUnique({
    where: { userId: workspaceId },
    select: { designerProviderId: true, designerModel: true },
  });
  if (settings?.designerProviderId)
    return secretConfig(workspaceId, settings.designerProviderId, settings.designerModel ?? undefined);
  if (envConfigured()) return defaultModelConfig();
  const latest = await db().modelProvider.findFirst({
    where: { workspaceId },
    orderBy: { updatedAt: "desc" },
    select: { id: true },
  });
  if (latest) return secretConfig(workspaceId, latest.id, undefined);
  return scriptedModelConfig();
}
