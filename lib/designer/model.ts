import { extractJson } from "@/lib/llm/json";
import type { WireSchemas } from "./json-schema";

/**
 * The model as the designer sees it: one structured call carrying the exact answer schemas
 * (json-schema.ts). Injected, so the pipeline runs against any OpenAI-compatible provider over HTTP
 * (llm.ts, which picks the provider's structured-output path), an in-process transcript replay, or
 * the scripted server. A call never throws for a bad answer: it returns the JSON it found (read
 * leniently by the pipeline) or `ok: false` with the raw text when there was none.
 */

export type ChatMessage = { role: "user" | "assistant"; content: string };

/** Tokens of one call (as reported by the provider, or counted locally). */
export type CallUsage = { promptTokens: number; completionTokens: number };

export interface StructuredRequest {
  /** The answer schemas: name (response_format name / forced tool name), loose and strict JSON schema. */
  schema: WireSchemas;
  system: string;
  messages: ChatMessage[];
  signal?: AbortSignal;
  /**
   * Hears the answer's text as the model writes it (a streamed call); `attempt` counts lib/llm's
   * retries, whose text starts over. Models that cannot stream never call it.
   */
  onText?: (text: string, attempt: number) => void;
}

/** The JSON value a model answered (unvalidated: the pipeline reads it), or why there was none. */
export type StructuredResult =
  | { ok: true; data: unknown; raw: string; usage: CallUsage; method?: string }
  | { ok: false; error: string; raw: string; usage: CallUsage; method?: string };

/** What the designer needs from a model. */
export interface DesignerModel {
  structured(request: StructuredRequest): Promise<StructuredResult>;
}

/** Calls and tokens of one designer request (B4 counts these). */
export type Usage = { calls: number; promptTokens: number; completionTokens: number };

/** Wraps a model so every call is counted into `usage` (mutated in place). */
export function countingModel(model: DesignerModel, usage: Usage): DesignerModel {
  return {
    async structured(request: StructuredRequest) {
      usage.calls += 1;
      const result = await model.structured(request);
      usage.promptTokens += result.usage.promptTokens;
      usage.completionTokens += result.usage.completionTokens;
      return result;
    },
  };
}

/** The JSON in model text (whole text, a fenced block, or the first balanced object), or why there is none. */
export function jsonIn(raw: string): { ok: true; data: unknown } | { ok: false; error: string } {
  const found = extractJson(raw);
  if (found) return { ok: true, data: found.value };
  return {
    ok: false,
    error: raw.trim() ? "The answer is not valid JSON: no JSON object was found in it." : "The answer was empty.",
  };
}
