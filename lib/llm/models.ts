import "server-only";
import { createHash } from "node:crypto";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import * as z from "zod";
import { envSchema } from "@/lib/env";
import { providerFetch } from "./provider-fetch";

/** A model endpoint: any OpenAI-compatible API (OpenAI, Ollama, vLLM, LM Studio, OpenRouter, the scripted server). */
export const modelConfigSchema = z.object({
  /** Base URL ending in /v1, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1. */
  baseURL: z.url(),
  /** API key; optional because local servers need none (a placeholder is sent then). */
  apiKey: z.string().min(1).optional(),
  model: z.string().min(1),
  /** Sampling temperature; default: the provider's own default (not sent). */
  temperature: z.number().min(0).max(2).optional(),
  /** Timeout per try in ms: the whole call when read at once, the wait for each chunk when streamed (invoke.ts tryDeadline). */
  timeoutMs: z.number().int().positive().optional(),
  /**
   * The base URL is a user's (a provider row): calls go through the SSRF guard with the address
   * pinned and no redirects (provider-fetch.ts). Operator endpoints (env, scripted) leave it unset.
   */
  userEndpoint: z.boolean().optional(),
});
export type ModelConfig = z.infer<typeof modelConfigSchema>;

/** Default timeout per try: 60 s. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Model name of the offline demo model served by lib/llm/scripted. */
export const SCRIPTED_MODEL = "scripted-demo";

/** What the UI shows wherever the scripted model's name would appear. */
export const SCRIPTED_MODEL_LABEL = "Scripted demo model";

/**
 * A config is "scripted" when its model name starts with "scripted" (case-insensitive), whatever
 * the base URL: tests run the scripted server on random ports, and no real provider uses that prefix.
 */
export function isScriptedModel(config: Pick<ModelConfig, "model">): boolean {
  return config.model.toLowerCase().startsWith("scripted");
}

/** The name to show for a model: "Scripted demo model" for scripted configs, else the model name. */
export function modelLabel(config: Pick<ModelConfig, "model">): string {
  return isScriptedModel(config) ? SCRIPTED_MODEL_LABEL : config.model;
}

/**
 * Config for the local scripted server (`npm run model-server`), port from WEFT_SCRIPTED_MODEL_PORT
 * (default 4010) unless given, or WEFT_SCRIPTED_MODEL_URL when set (docker-compose). Used when no provider
 * is configured.
 */
export function scriptedModelConfig(port?: number): ModelConfig {
  const fixedUrl = port === undefined ? process.env.WEFT_SCRIPTED_MODEL_URL : undefined;
  const p = port ?? envSchema.shape.WEFT_SCRIPTED_MODEL_PORT.parse(process.env.WEFT_SCRIPTED_MODEL_PORT);
  return { baseURL: fixedUrl || `http://127.0.0.1:${p}/v1`, apiKey: "scripted", model: SCRIPTED_MODEL };
}

const providerEnv = envSchema.pick({
  OPENAI_BASE_URL: true,
  OPENAI_API_KEY: true,
  OPENAI_MODEL: true,
  WEFT_SCRIPTED_MODEL_PORT: true,
});

/**
 * The model used when a user has chosen none: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL
 * when either of the first two is set (base URL default https://api.openai.com/v1), else the
 * local scripted demo model. Reads only those variables, so it works without the app's secrets.
 */
export function defaultModelConfig(source: Record<string, string | undefined> = process.env): ModelConfig {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const e = providerEnv.parse(cleaned);
  if (!e.OPENAI_BASE_URL && !e.OPENAI_API_KEY) {
    const scripted = scriptedModelConfig(e.WEFT_SCRIPTED_MODEL_PORT);
    return cleaned.WEFT_SCRIPTED_MODEL_URL ? { ...scripted, baseURL: cleaned.WEFT_SCRIPTED_MODEL_URL } : scripted;
  }
  return {
    baseURL: e.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
    model: e.OPENAI_MODEL,
    ...(e.OPENAI_API_KEY ? { apiKey: e.OPENAI_API_KEY } : {}),
  };
}

/** Options for createChatModel beyond the config. */
export interface ChatModelOptions {
  /** Keep the provider's raw response in additional_kwargs.__raw_response (invoke.ts reads refusals there). Default false. */
  includeRawResponse?: boolean;
}

/**
 * Builds a LangChain ChatOpenAI for a config. maxRetries is 0 because lib/llm/retry.ts retries
 * (with retry-after and typed errors); the timeout bounds the time to response headers, so callers
 * should also pass an abort signal (invoke.ts does) to bound slow bodies and stalled streams.
 */
export function createChatModel(config: ModelConfig, opts: ChatModelOptions = {}): ChatOpenAI {
  const c = modelConfigSchema.parse(config);
  return new ChatOpenAI({
    model: c.model,
    apiKey: c.apiKey ?? "not-needed",
    ...(c.temperature === undefined ? {} : { temperature: c.temperature }),
    maxRetries: 0,
    timeout: c.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    streamUsage: true,
    ...(opts.includeRawResponse ? { __includeRawResponse: true } : {}),
    configuration: { baseURL: c.baseURL, ...(c.userEndpoint ? { fetch: providerFetch } : {}) },
  });
}

/** How many distinct model configs keep a client (least recently used ones are dropped first). */
export const CHAT_MODEL_CACHE_MAX = 64;
const chatModels = new Map<string, ChatOpenAI>();
// Fast path by config object (no hashing); an entry counts only while its key still maps to the same client.
const plainByConfig = new WeakMap<ModelConfig, { key: string; model: ChatOpenAI }>();
const rawByConfig = new WeakMap<ModelConfig, { key: string; model: ChatOpenAI }>();

/**
 * The ChatOpenAI client for a config, built once and reused (a client holds no per-call state; each
 * call passes its own signal and options). Keyed by everything createChatModel reads, the API key
 * only as a hash; at most CHAT_MODEL_CACHE_MAX clients are kept. A changed key or URL is a new entry.
 * Configs are values: build a new object to change one (a config object is also looked up by identity).
 */
export function chatModelFor(config: ModelConfig, opts: ChatModelOptions = {}): ChatOpenAI {
  // a run job resolves each ModelRef once, so the same config object comes back for every call
  const byObject = (opts.includeRawResponse ? rawByConfig : plainByConfig).get(config);
  if (byObject && chatModels.get(byObject.key) === byObject.model) return byObject.model;
  const keyHash = config.apiKey ? createHash("sha256").update(config.apiKey).digest("base64url") : "";
  const key = JSON.stringify([
    config.baseURL,
    config.model,
    keyHash,
    config.temperature ?? null,
    config.timeoutMs ?? null,
    Boolean(opts.includeRawResponse),
    Boolean(config.userEndpoint),
  ]);
  let model = chatModels.get(key);
  if (model)
    chatModels.delete(key); // re-inserted below: most recently used last
  else model = createChatModel(config, opts);
  chatModels.set(key, model);
  if (chatModels.size > CHAT_MODEL_CACHE_MAX) chatModels.delete(chatModels.keys().next().value!);
  (opts.includeRawResponse ? rawByConfig : plainByConfig).set(config, { key, model });
  return model;
}

/** Default embedding model of the scripted server (any name works there; vectors are 256-dimensional). */
export const SCRIPTED_EMBEDDING_MODEL = "scripted-embed";

/**
 * Builds a LangChain OpenAIEmbeddings for an OpenAI-compatible endpoint (maxRetries 0: use
 * lib/llm/embed.ts for retries). `dimensions` is sent only when given.
 */
export function createEmbeddings(config: ModelConfig, dimensions?: number): OpenAIEmbeddings {
  const c = modelConfigSchema.parse(config);
  return new OpenAIEmbeddings({
    model: c.model,
    apiKey: c.apiKey ?? "not-needed",
    maxRetries: 0,
    timeout: c.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(dimensions === undefined ? {} : { dimensions }),
    configuration: { baseURL: c.baseURL },
  });
}
