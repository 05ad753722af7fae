import "server-only";
import * as z from "zod";
import { envSchema } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { embed } from "@/lib/llm/embed";
import { defaultModelConfig, SCRIPTED_EMBEDDING_MODEL, type ModelConfig } from "@/lib/llm/models";

/** The endpoint, model and optional vector size chunks and queries are embedded with. */
export interface EmbeddingSetup {
  config: ModelConfig;
  dimensions?: number;
}

/** Default embedding model of real providers. */
export const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";

const embeddingEnv = envSchema.pick({
  WEFT_EMBEDDING_BASE_URL: true,
  WEFT_EMBEDDING_API_KEY: true,
  WEFT_EMBEDDING_MODEL: true,
  WEFT_EMBEDDING_DIMENSIONS: true,
  OPENAI_BASE_URL: true,
  OPENAI_API_KEY: true,
});

/**
 * Where embeddings come from (read from the environment at each call, like lib/llm's default model):
 * 1. WEFT_EMBEDDING_BASE_URL (+ WEFT_EMBEDDING_API_KEY);
 * 2. OPENAI_BASE_URL / OPENAI_API_KEY (the app's default provider);
 * 3. the scripted model server (offline demo and tests).
 * The model is WEFT_EMBEDDING_MODEL, else text-embedding-3-small (real) or scripted-embed (scripted).
 */
export function embeddingSetup(source: Record<string, string | undefined> = process.env): EmbeddingSetup {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const e = embeddingEnv.parse(cleaned);
  const dimensions = e.WEFT_EMBEDDING_DIMENSIONS;
  const withDims = (config: ModelConfig): EmbeddingSetup => (dimensions ? { config, dimensions } : { config });
  if (e.WEFT_EMBEDDING_BASE_URL) {
    return withDims({
      baseURL: e.WEFT_EMBEDDING_BASE_URL,
      model: e.WEFT_EMBEDDING_MODEL ?? DEFAULT_EMBEDDING_MODEL,
      ...(e.WEFT_EMBEDDING_API_KEY ? { apiKey: e.WEFT_EMBEDDING_API_KEY } : {}),
    });
  }
  if (e.OPENAI_BASE_URL || e.OPENAI_API_KEY) {
    const base = defaultModelConfig(source);
    return withDims({
      baseURL: base.baseURL,
      model: e.WEFT_EMBEDDING_MODEL ?? DEFAULT_EMBEDDING_MODEL,
      ...(base.apiKey ? { apiKey: base.apiKey } : {}),
    });
  }
  const scripted = defaultModelConfig(source); // the scripted server (WEFT_SCRIPTED_MODEL_URL / _PORT)
  return withDims({ ...scripted, model: e.WEFT_EMBEDDING_MODEL ?? SCRIPTED_EMBEDDING_MODEL });
}

/** Texts per embeddings request. */
export const EMBED_BATCH = 64;

const vectorSchema = z.array(z.number().finite()).min(1);

/** L2-normalises a vector (so cosine similarity is a dot product); a zero vector stays zero. */
export function normalise(v: number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return n > 0 ? v.map((x) => x / n) : v;
}

/** Binary quantisation: one bit per dimension, 1 where the component is positive (a varbit literal). */
export const signBits = (v: number[]): string => v.map((x) => (x > 0 ? "1" : "0")).join("");

/** Bit planes of the query for the asymmetric 1-bit prefilter (see queryPlanes). */
export const QUERY_LEVELS = 4;

/**
 * Quantises a query vector to 4-bit magnitudes split into bit planes: plane l of the positive
 * (negative) components has bit i set when q_i > 0 (q_i < 0) and bit l of round(|q_i| / max|q| * 15)
 * is set. Then Σ_i q_i·b_i over a chunk's sign bits b ≈ Σ_l 2^l (popcount(b & pos_l) − popcount(b & neg_l)),
 * which ranks chunks like the dot product with their sign vectors — computed with native varbit ops.
 */
export function queryPlanes(q: number[]): { pos: string[]; neg: string[] } {
  const max = Math.max(...q.map(Math.abs)) || 1;
  const top = 2 ** QUERY_LEVELS - 1;
  const ints = q.map((x) => Math.round((Math.abs(x) / max) * top));
  const plane = (l: number, positive: boolean) =>
    q.map((x, i) => ((positive ? x > 0 : x < 0) && (ints[i]! >> l) & 1 ? "1" : "0")).join("");
  const levels = Array.from({ length: QUERY_LEVELS }, (_, l) => l);
  return { pos: levels.map((l) => plane(l, true)), neg: levels.map((l) => plane(l, false)) };
}

/** Embeds texts in batches; returns L2-normalised vectors, all of one size. Endpoint failures are AppError("unavailable") (503). */
export async function embedTexts(
  texts: string[],
  setup: EmbeddingSetup = embeddingSetup(),
  signal?: AbortSignal,
): Promise<{ vectors: number[][]; dimensions: number; model: string }> {
  const vectors: number[][] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const batch = texts.slice(i, i + EMBED_BATCH);
    let got: number[][];
    try {
      got = (await embed({ config: setup.config, texts: batch, dimensions: setup.dimensions, signal })).vectors;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new AppError(
        "unavailable",
        `The embeddings endpoint failed (${setup.config.model} at ${setup.config.baseURL}): ${why.slice(0, 300)}. Nothing was stored; try again later or check WEFT_EMBEDDING_* / the provider.`,
      );
    }
    if (got.length !== batch.length)
      throw new Error(`the embeddings endpoint returned ${got.length} vectors for ${batch.length} texts`);
    for (const v of got) vectors.push(normalise(vectorSchema.parse(v)));
  }
  const dimensions = vectors[0]?.length ?? setup.dimensions ?? 0;
  if (vectors.some((v) => v.length !== dimensions))
    throw new Error("the embeddings endpoint returned vectors of different sizes");
  return { vectors, dimensions, model: setup.config.model };
}
