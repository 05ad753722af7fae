import "server-only";
import { chat, type ChatResult, type Usage } from "./invoke";
import { extractJson } from "./json";
import type { ChatMessage } from "./messages";
import type { ModelConfig } from "./models";
import { ProviderError, type RetryOptions } from "./retry";
import type { JsonSchema } from "./strict-schema";

/**
 * One structured answer as JSON, over whichever path the provider supports — the capability paths,
 * in order of preference: `json_schema` (response_format json_schema with the strict schema, OpenAI
 * strict mode and compatibles), `tool` (one tool forced with tool_choice), `json_object` (JSON mode,
 * e.g. Ollama's and vLLM's OpenAI endpoints; the schema goes in the prompt) and `text` (the schema in
 * the prompt, the JSON found in whatever comes back). A provider that rejects a path's parameters
 * (400 naming them) is asked again on the next path; one that ignores them (prose or fences around
 * the JSON, no tool call) still has its JSON read, and the result says the path was not honoured so
 * the caller can remember a better one. Tool arguments sent as an object instead of a string are read.
 * The value is NOT validated here: the caller reads it (the designer repairs it).
 */

export type StructuredPath = "json_schema" | "tool" | "json_object" | "text";

/** The paths in order of preference. */
export const STRUCTURED_PATHS: readonly StructuredPath[] = ["json_schema", "tool", "json_object", "text"];

export interface JsonCallParams {
  config: ModelConfig;
  messages: ChatMessage[];
  /** Schema name: response_format name / forced tool name (fixtures of the scripted model match on it). */
  name: string;
  description?: string;
  /** `loose`: an ordinary JSON schema (tool, JSON mode, text); `strict`: its strict-mode form (json_schema). */
  schema: { loose: JsonSchema; strict?: JsonSchema };
  /** The path to try first. Default "json_schema". */
  path?: StructuredPath;
  /** Only `path`: a rejection is thrown instead of trying the next path. Default false. */
  only?: boolean;
  signal?: AbortSignal;
  retry?: Omit<RetryOptions, "signal">;
  onDelta?: (text: string, attempt: number) => void;
}

export interface JsonCallResult {
  /** The JSON value found, unvalidated; undefined when the answer held none. */
  data?: unknown;
  /** The answer as text: the tool call's arguments, else the message content. */
  text: string;
  /** The path that produced the answer. */
  path: StructuredPath;
  /**
   * The provider answered in the form the path asks for (pure JSON content, or the forced tool
   * call); false when JSON came wrapped in prose or a fence (the path's parameters were ignored). An
   * answer with no JSON at all says nothing about the path and counts as honoured.
   */
  honoured: boolean;
  /** Paths the provider refused before this one (400 naming their parameters). */
  rejected: StructuredPath[];
  usage: Usage;
  latencyMs: number;
  model: string;
  finishReason: string;
}

/** A 400 whose message names a structured-output parameter: the provider does not support that path. */
const UNSUPPORTED = /tool|function|response_format|json_schema|json_object|structured|schema|strict|format/i;

/** The system instruction of the paths that carry the schema in the prompt. */
export function schemaInstruction(name: string, schema: JsonSchema): string {
  return `Answer with only one JSON object, no prose and no code fences, matching this JSON Schema (named "${name}"):\n${JSON.stringify(schema)}`;
}

function request(p: JsonCallParams, path: StructuredPath) {
  const base = { config: p.config, signal: p.signal, retry: p.retry, onDelta: p.onDelta };
  const inPrompt: ChatMessage[] = [
    { role: "system", content: schemaInstruction(p.name, p.schema.loose) },
    ...p.messages,
  ];
  switch (path) {
    case "json_schema": {
      const schema = p.schema.strict ?? p.schema.loose;
      return {
        ...base,
        messages: p.messages,
        responseFormat: { type: "json_schema" as const, name: p.name, schema, strict: Boolean(p.schema.strict) },
      };
    }
    case "tool":
      return {
        ...base,
        messages: p.messages,
        tools: [{ name: p.name, description: p.description ?? `Return the ${p.name} answer.`, schema: p.schema.loose }],
        toolChoice: { name: p.name },
      };
    case "json_object":
      return { ...base, messages: inPrompt, responseFormat: { type: "json_object" as const } };
    case "text":
      return { ...base, messages: inPrompt };
  }
}

/** The JSON of an answer, and whether the provider answered in the path's own form. */
function read(
  res: ChatResult,
  p: JsonCallParams,
  path: StructuredPath,
): { data?: unknown; text: string; honoured: boolean } {
  const call = res.toolCalls.find((c) => c.name === p.name) ?? res.toolCalls[0];
  if (call) return { data: call.args, text: JSON.stringify(call.args), honoured: path === "tool" };
  const bad = res.invalidToolCalls[0];
  if (bad) {
    const found = extractJson(bad.rawArgs);
    return { ...(found ? { data: found.value } : {}), text: bad.rawArgs, honoured: path === "tool" };
  }
  const found = extractJson(res.content);
  if (!found) return { text: res.content, honoured: true };
  return { data: found.value, text: res.content, honoured: path === "text" || !wrapped(res.content) };
}

const parses = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

/**
 * The content is a whole JSON object with prose or a fence around it: the provider answered as plain
 * text, ignoring the path's parameters. A broken answer (cut off, a fragment found inside it) says
 * nothing about them.
 */
function wrapped(content: string): boolean {
  const text = content.trim();
  if (parses(text)) return false;
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  return start >= 0 && end > start && parses(text.slice(start, end + 1));
}

/**
 * One structured answer (see the module comment); throws ProviderError on transport failure or when
 * every path is refused.
 */
export async function askJson(p: JsonCallParams): Promise<JsonCallResult> {
  const first = p.path ?? "json_schema";
  const order = p.only ? [first] : STRUCTURED_PATHS.slice(STRUCTURED_PATHS.indexOf(first));
  const rejected: StructuredPath[] = [];
  for (const path of order) {
    let res: ChatResult;
    try {
      res = await chat(request(p, path));
    } catch (e) {
      // the provider's own words decide (they are never shown: the error's message is a status summary)
      const refused =
        e instanceof ProviderError && e.kind === "bad_request" && UNSUPPORTED.test(e.providerMessage ?? e.message);
      if (!refused || path === order.at(-1)) throw e;
      rejected.push(path);
      continue;
    }
    const { data, text, honoured } = read(res, p, path);
    return {
      ...(data !== undefined ? { data } : {}),
      text,
      path,
      honoured,
      rejected,
      usage: res.usage,
      latencyMs: res.latencyMs,
      model: res.model,
      finishReason: res.finishReason,
    };
  }
  throw new ProviderError("bad_request", "The provider refused every structured-output path.");
}

/** The path to use next time after `result`: the one that answered when honoured, else the one after it. */
export function nextPath(result: Pick<JsonCallResult, "path" | "honoured">): StructuredPath {
  if (result.honoured) return result.path;
  return STRUCTURED_PATHS[Math.min(STRUCTURED_PATHS.indexOf(result.path) + 1, STRUCTURED_PATHS.length - 1)]!;
}
