import "server-only";
import type { AIMessage, AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import * as z from "zod";
import { contentToText, toLangChain, type ChatMessage, type ToolCall } from "./messages";
import { chatModelFor, DEFAULT_TIMEOUT_MS, type ModelConfig } from "./models";
import { ProviderError, withRetry, type RetryOptions } from "./retry";

export type { ChatMessage, ToolCall } from "./messages";

/** A tool offered to the model. A zod schema also validates the arguments the model sends. */
export interface ToolSpec {
  name: string;
  description?: string;
  /** zod schema (validated) or a JSON schema object (only its `required` list is checked). */
  schema: z.ZodType | Record<string, unknown>;
}

/** "auto" (default when tools are given), "required", "none", or force one tool by name. */
export type ToolChoice = "auto" | "required" | "none" | { name: string };

/** OpenAI response_format; json_schema carries a JSON schema and its name. */
export type ResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; name: string; schema: Record<string, unknown>; strict?: boolean };

export type InvalidToolCallReason =
  "invalid_json" | "truncated" | "empty_args" | "not_object" | "unknown_tool" | "schema_invalid";

/** A tool call the model sent that must not run; carries enough to ask the model for a repair. */
export class ToolCallError extends Error {
  constructor(
    readonly reason: InvalidToolCallReason,
    readonly toolCallId: string,
    readonly toolName: string,
    readonly rawArgs: string,
    message: string,
  ) {
    super(message);
    this.name = "ToolCallError";
  }
}

/** Token counts of a call; `estimated` when the provider reported none (ceil(chars / 4)). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  estimated?: boolean;
}

/** The outcome of one chat call (after retries). */
export interface ChatResult {
  id: string | undefined;
  content: string;
  /** The model's refusal text (OpenAI `message.refusal`), else null. */
  refusal: string | null;
  /** Valid calls only: parsed JSON objects that passed the tool's schema. */
  toolCalls: ToolCall[];
  /** Calls that must not run (bad JSON, truncated, unknown tool, schema mismatch…). */
  invalidToolCalls: ToolCallError[];
  /** "stop" | "length" | "tool_calls" | "content_filter" | provider-specific; "unknown" if none. */
  finishReason: string;
  usage: Usage;
  /** Duration of the successful attempt. */
  latencyMs: number;
  attempts: number;
  /** The model name that answered (the provider's, else the config's). */
  model: string;
}

export interface ChatParams {
  config: ModelConfig;
  messages: ChatMessage[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  responseFormat?: ResponseFormat;
  /** Aborts the call and its retries (ProviderError kind "aborted"). */
  signal?: AbortSignal;
  /** Retry policy (defaults in RetryOptions); retries apply to retryable ProviderErrors only. */
  retry?: Omit<RetryOptions, "signal">;
  /**
   * Streams when set: called with each text delta and the attempt number. A retry after a
   * mid-stream failure starts over, so discard text from earlier attempts. Default: no streaming.
   */
  onDelta?: (text: string, attempt: number) => void;
  /** With streaming (onDelta): called with a tool call's name as soon as the model names it, before its arguments. */
  onToolStart?: (name: string) => void;
}

const isZod = (s: ToolSpec["schema"]): s is z.ZodType => s instanceof z.ZodType;

/** Converted schemas, per zod schema object (a tool's or a branch choice's schema is reused call after call). */
const converted = new WeakMap<z.ZodType, Record<string, unknown>>();

/** JSON schema of a tool's parameters (treat as read-only: a zod schema's conversion is cached). */
export function jsonSchemaOf(schema: ToolSpec["schema"]): Record<string, unknown> {
  if (!isZod(schema)) return schema;
  let out = converted.get(schema);
  if (!out) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<
      string,
      unknown
    >;
    converted.set(schema, (out = rest));
  }
  return out;
}

function callOptions(p: ChatParams) {
  const tools = p.tools?.map((t) => ({
    type: "function" as const,
    function: { name: t.name, description: t.description ?? "", parameters: jsonSchemaOf(t.schema) },
  }));
  const choice = p.toolChoice;
  const tool_choice =
    choice === undefined
      ? undefined
      : typeof choice === "string"
        ? choice
        : { type: "function" as const, function: { name: choice.name } };
  const rf = p.responseFormat;
  const response_format =
    rf?.type === "json_schema"
      ? {
          type: "json_schema" as const,
          json_schema: { name: rf.name, schema: rf.schema, ...(rf.strict === undefined ? {} : { strict: rf.strict }) },
        }
      : rf;
  return {
    ...(tools?.length ? { tools } : {}),
    ...(tool_choice ? { tool_choice } : {}),
    ...(response_format ? { response_format } : {}),
  };
}

interface RawToolCall {
  id?: string;
  /** `arguments` is a JSON string per the OpenAI API; some servers send the object itself. */
  function?: { name?: string; arguments?: unknown };
}

/** A tool call's arguments as text (an object some servers send instead of a string is serialised). */
const argsText = (args: unknown): string =>
  typeof args === "string" ? args : args === undefined || args === null ? "" : JSON.stringify(args);

function requiresArgs(schema: ToolSpec["schema"]): boolean {
  if (isZod(schema)) return !schema.safeParse({}).success;
  return Array.isArray(schema.required) && schema.required.length > 0;
}

/** Parses one raw tool call into a valid call or a typed ToolCallError. */
export function parseToolCall(
  raw: RawToolCall,
  tools: ToolSpec[] | undefined,
  finishReason: string,
): ToolCall | ToolCallError {
  const id = raw.id ?? "";
  const name = raw.function?.name ?? "";
  const text = argsText(raw.function?.arguments);
  const fail = (reason: InvalidToolCallReason, msg: string) => new ToolCallError(reason, id, name, text, msg);
  const spec = tools?.find((t) => t.name === name);
  if (tools && !spec)
    return fail("unknown_tool", `Unknown tool "${name}"; available: ${tools.map((t) => t.name).join(", ") || "none"}.`);
  let args: unknown = {};
  if (text.trim() === "") {
    if (spec && requiresArgs(spec.schema)) return fail("empty_args", `Tool "${name}" was called with empty arguments.`);
  } else {
    try {
      args = JSON.parse(text);
    } catch (e) {
      return finishReason === "length"
        ? fail("truncated", `Arguments of "${name}" were cut off (finish_reason "length").`)
        : fail("invalid_json", `Arguments of "${name}" are not valid JSON: ${(e as Error).message}`);
    }
  }
  if (!args || typeof args !== "object" || Array.isArray(args))
    return fail("not_object", `Arguments of "${name}" must be a JSON object.`);
  if (spec && isZod(spec.schema)) {
    const r = spec.schema.safeParse(args);
    if (!r.success)
      return fail("schema_invalid", `Arguments of "${name}" do not match its schema: ${z.prettifyError(r.error)}`);
    args = r.data;
  }
  return { id, name, args: args as Record<string, unknown> };
}

const estimate = (s: string) => Math.max(1, Math.ceil(s.length / 4));

function usageOf(msg: AIMessage, messages: ChatMessage[], completionText: string): Usage {
  const u = msg.usage_metadata;
  if (u && (u.input_tokens || u.output_tokens))
    return { promptTokens: u.input_tokens, completionTokens: u.output_tokens };
  return {
    promptTokens: messages.reduce((n, m) => n + 4 + estimate(m.content), 0),
    completionTokens: estimate(completionText),
    estimated: true,
  };
}

type Answer = { msg: AIMessage | AIMessageChunk; refusal: string | null };

type RawResponse = { choices?: { message?: { refusal?: string | null }; delta?: { refusal?: string | null } }[] };

function toResult({ msg, refusal }: Answer, p: ChatParams, latencyMs: number, attempts: number): ChatResult {
  const finishReason = String(msg.response_metadata?.finish_reason ?? "unknown");
  const raw = (msg.additional_kwargs.tool_calls ?? []) as RawToolCall[];
  const parsed = raw.map((r) => parseToolCall(r, p.tools, finishReason));
  const content = contentToText(msg.content);
  const completionText =
    content + raw.map((r) => `${r.function?.name ?? ""}${argsText(r.function?.arguments)}`).join("");
  return {
    id: msg.id,
    content,
    refusal,
    toolCalls: parsed.filter((c): c is ToolCall => !(c instanceof ToolCallError)),
    invalidToolCalls: parsed.filter((c): c is ToolCallError => c instanceof ToolCallError),
    finishReason,
    usage: usageOf(msg, p.messages, completionText),
    latencyMs,
    attempts,
    model:
      typeof msg.response_metadata?.model_name === "string" && msg.response_metadata.model_name
        ? msg.response_metadata.model_name
        : p.config.model,
  };
}

type Model = ReturnType<typeof chatModelFor>;
type CallOptions = ReturnType<typeof callOptions> & { signal: AbortSignal };

async function invoked(model: Model, messages: BaseMessage[], options: CallOptions): Promise<Answer> {
  const msg = await model.invoke(messages, options);
  const raw = msg.additional_kwargs.__raw_response as RawResponse | undefined;
  delete msg.additional_kwargs.__raw_response;
  return { msg, refusal: raw?.choices?.[0]?.message?.refusal ?? null };
}

/** Streams and reassembles; refusal deltas are read from each chunk's raw response (LangChain drops them). */
async function streamed(
  model: Model,
  messages: BaseMessage[],
  options: CallOptions,
  onText: (t: string) => void,
  onTool?: (name: string) => void,
  onChunk?: () => void,
): Promise<Answer> {
  let full: AIMessageChunk | undefined;
  let refusal = "";
  for await (const chunk of await model.stream(messages, options)) {
    onChunk?.();
    const raw = chunk.additional_kwargs.__raw_response as RawResponse | undefined;
    delete chunk.additional_kwargs.__raw_response;
    refusal += raw?.choices?.[0]?.delta?.refusal ?? "";
    const text = contentToText(chunk.content);
    if (text) onText(text);
    // a tool call's first chunk carries its name; later chunks only argument text
    if (onTool) for (const c of chunk.tool_call_chunks ?? []) if (c.name) onTool(c.name);
    full = full ? full.concat(chunk) : chunk;
  }
  if (!full) throw new ProviderError("connection", "The stream ended without any chunk.");
  return { msg: full, refusal: refusal || null };
}

/** A streamed answer may take this many times config.timeoutMs in all, as long as its chunks keep coming. */
export const STREAM_MAX_FACTOR = 10;

/**
 * What ends one try: a whole-call timeout for an answer read at once; for a streamed one, the
 * same time without a chunk (so a slow local model writing a long answer is never cut off while
 * it writes, but a stalled stream still ends), and at most STREAM_MAX_FACTOR times it in all.
 */
function tryDeadline(timeoutMs: number, stream: boolean) {
  const ac = new AbortController();
  let why: string | null = null;
  const end = (message: string) => {
    why ??= message;
    ac.abort();
  };
  const idleMessage = stream
    ? `No chunk of the answer for ${timeoutMs} ms.`
    : `No complete answer within ${timeoutMs} ms.`;
  const idle = setTimeout(() => end(idleMessage), timeoutMs);
  const whole = stream
    ? setTimeout(
        () => end(`No complete answer within ${timeoutMs * STREAM_MAX_FACTOR} ms.`),
        timeoutMs * STREAM_MAX_FACTOR,
      )
    : undefined;
  return {
    signal: ac.signal,
    /** Why it fired, or null. */
    reason: () => why,
    /** A chunk arrived: the wait for the next one starts now. */
    touch: () => {
      if (why === null) idle.refresh();
    },
    clear: () => {
      clearTimeout(idle);
      clearTimeout(whole);
    },
  };
}

/**
 * One chat completion with lib/llm's retry policy and a timeout per try (config.timeoutMs, default
 * 60 s: the whole call for an answer read at once, the wait for each chunk of a streamed one;
 * tryDeadline). Throws ProviderError on transport/HTTP failure; bad tool calls never throw — they
 * come back typed in `invalidToolCalls`.
 */
export async function chat(p: ChatParams): Promise<ChatResult> {
  const model = chatModelFor(p.config, { includeRawResponse: true });
  const messages = toLangChain(p.messages);
  const options = callOptions(p);
  const timeoutMs = p.config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let latencyMs = 0;
  // json_schema is streamed: the OpenAI SDK's non-streaming parse() path throws on invalid JSON
  // content and on finish_reason "length", losing the raw answer that format repair feeds back.
  const stream = p.onDelta !== undefined || p.responseFormat?.type === "json_schema";
  const { value, attempts } = await withRetry(
    async (attempt) => {
      const t0 = performance.now();
      const deadline = tryDeadline(timeoutMs, stream);
      const signal = p.signal ? AbortSignal.any([p.signal, deadline.signal]) : deadline.signal;
      try {
        const answer = stream
          ? await streamed(
              model,
              messages,
              { ...options, signal },
              (t) => p.onDelta?.(t, attempt),
              p.onToolStart,
              deadline.touch,
            )
          : await invoked(model, messages, { ...options, signal });
        latencyMs = Math.round(performance.now() - t0);
        return answer;
      } catch (e) {
        const why = deadline.reason();
        if (why !== null && !p.signal?.aborted)
          throw new ProviderError("timeout", why, undefined, undefined, { cause: e });
        throw e;
      } finally {
        deadline.clear();
      }
    },
    { ...p.retry, signal: p.signal },
  );
  return toResult(value, p, latencyMs, attempts);
}
