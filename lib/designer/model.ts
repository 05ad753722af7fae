import type { z } from "zod";

/**
 * The model as the designer sees it: one structured call with a zod schema. Injected, so the
 * pipeline runs against the scripted server over HTTP (lib/llm adapter), an in-process transcript
 * replay, or any configured OpenAI-compatible model. A call never throws for a bad answer: it
 * returns `ok: false` with the raw text and the parse error, which the pipeline feeds back.
 */

export type ChatMessage = { role: "user" | "assistant"; content: string };

/** Tokens of one call (as reported by the provider, or counted locally). */
export type CallUsage = { promptTokens: number; completionTokens: number };

export interface StructuredRequest<T> {
  /** Schema name sent with the call (response_format name / forced tool name). */
  name: string;
  schema: z.ZodType<T>;
  system: string;
  messages: ChatMessage[];
  signal?: AbortSignal;
}

export type StructuredResult<T> =
  | { ok: true; value: T; raw: string; usage: CallUsage }
  | { ok: false; error: string; raw: string; usage: CallUsage };

/** What the designer needs from a model. */
export interface DesignerModel {
  structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>>;
}

/** Calls and tokens of one designer request (B4 counts these). */
export type Usage = { calls: number; promptTokens: number; completionTokens: number };

/** Wraps a model so every call is counted into `usage` (mutated in place). */
export function countingModel(model: DesignerModel, usage: Usage): DesignerModel {
  return {
    async structured<T>(request: StructuredRequest<T>) {
      usage.calls += 1;
      const result = await model.structured(request);
      usage.promptTokens += result.usage.promptTokens;
      usage.completionTokens += result.usage.completionTokens;
      return result;
    },
  };
}

/** Extracts the first JSON value from model text: a ```json fence, or the outermost {...}. */
export function extractJson(text: string): unknown {
  const fence = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const body = fence ? fence[1]! : text;
  const start = body.indexOf("{");
  const end = body.lastIndexOf("}");
  if (start < 0 || end <= start) throw new Error("no JSON object found in the answer");
  return JSON.parse(body.slice(start, end + 1));
}

/** Parses raw model text against `schema`: JSON (possibly inside prose), then zod. */
export function parseAnswer<T>(raw: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = extractJson(raw);
  } catch (e) {
    return { ok: false, error: `The answer is not valid JSON: ${(e as Error).message}` };
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.slice(0, 8).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  return { ok: false, error: `The answer does not match the schema: ${issues.join("; ")}` };
}
