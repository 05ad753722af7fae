import "server-only";
import { createEmbeddings, type ModelConfig } from "./models";
import { withRetry, type RetryOptions } from "./retry";

export interface EmbedParams {
  config: ModelConfig;
  texts: string[];
  /** Vector size when the model supports choosing it (OpenAI text-embedding-3, the scripted server). */
  dimensions?: number;
  /** Stops retries (an in-flight request ends at config.timeoutMs). */
  signal?: AbortSignal;
  retry?: Omit<RetryOptions, "signal">;
}

export interface EmbedResult {
  vectors: number[][];
  /** Estimated (ceil(chars / 4)): the LangChain client does not expose the provider's count. */
  usage: { promptTokens: number; estimated: true };
  latencyMs: number;
  attempts: number;
}

/** Embeds texts with lib/llm's retry policy; throws ProviderError when it fails. */
export async function embed(p: EmbedParams): Promise<EmbedResult> {
  const client = createEmbeddings(p.config, p.dimensions);
  let latencyMs = 0;
  const { value, attempts } = await withRetry(
    async () => {
      const t0 = performance.now();
      const vectors = await client.embedDocuments(p.texts);
      latencyMs = Math.round(performance.now() - t0);
      return vectors;
    },
    { ...p.retry, signal: p.signal },
  );
  const promptTokens = p.texts.reduce((n, t) => n + Math.max(1, Math.ceil(t.length / 4)), 0);
  return { vectors: value, usage: { promptTokens, estimated: true }, latencyMs, attempts };
}
