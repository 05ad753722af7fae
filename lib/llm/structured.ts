import "server-only";
import * as z from "zod";
import { chat, jsonSchemaOf, type ToolCallError, type ChatResult, type Usage } from "./invoke";
import { extractJson } from "./json";
import type { ChatMessage } from "./messages";
import type { ModelConfig } from "./models";
import { ProviderError, type RetryOptions } from "./retry";

/** How to ask for structure: a forced tool call (default), response_format json_schema, or JSON in plain text. */
export type StructuredMethod = "tool" | "json_schema" | "text";

export interface StructuredParams<T> {
  config: ModelConfig;
  messages: ChatMessage[];
  schema: z.ZodType<T>;
  /** Tool / json_schema name, e.g. "choose_branch" (fixtures match on it). */
  name: string;
  description?: string;
  /** Default "tool". A 400 that rejects tools/response_format switches to "text" once. */
  method?: StructuredMethod;
  /** Format-repair rounds after the first answer (validation error fed back); default 2. */
  maxRepairs?: number;
  signal?: AbortSignal;
  retry?: Omit<RetryOptions, "signal">;
  /** Streams the text the model writes (its free text; a tool call's arguments are not text). See ChatParams.onDelta. */
  onDelta?: (text: string, attempt: number) => void;
}

export interface StructuredResult<T> {
  value: T;
  /** Model answers used (1 + repairs); transport retries are inside each. */
  attempts: number;
  /** Summed over all answers. */
  usage: Usage;
  latencyMs: number;
  /** The method that produced the value. */
  method: StructuredMethod;
  /** The model name that answered. */
  model: string;
}

export type StructuredFailureReason = "invalid_json" | "truncated" | "schema_invalid" | "no_output" | "refusal";

/** Structured output failed after all repairs (or was refused). Unvalidated data never escapes. */
export class StructuredOutputError extends Error {
  constructor(
    readonly reason: StructuredFailureReason,
    message: string,
    readonly attempts: number,
    readonly lastOutput: string,
    readonly usage: Usage,
  ) {
    super(message);
    this.name = "StructuredOutputError";
  }
}

type Outcome<T> =
  { ok: true; value: T } | { ok: false; reason: StructuredFailureReason; message: string; repair: ChatMessage[] };

const validationMessage = (e: z.ZodError) => `it does not match the schema: ${z.prettifyError(e)}`;

function textInstruction(p: StructuredParams<unknown>): string {
  return `Answer with only one JSON object, no prose and no code fences, matching this JSON Schema (named "${p.name}"):\n${JSON.stringify(jsonSchemaOf(p.schema))}`;
}

/** Messages for a method: "text" adds the schema instruction as a system message. */
function withInstruction(p: StructuredParams<unknown>, msgs: ChatMessage[], method: StructuredMethod): ChatMessage[] {
  return method === "text" ? [{ role: "system", content: textInstruction(p) }, ...msgs] : msgs;
}

function fromText<T>(p: StructuredParams<T>, res: ChatResult): Outcome<T> {
  const retry = (reason: StructuredFailureReason, message: string): Outcome<T> => ({
    ok: false,
    reason,
    message,
    repair: [
      { role: "assistant", content: res.content },
      {
        role: "user",
        content: `Your previous answer was invalid: ${message}\nReply again with only a JSON object that matches the schema "${p.name}".`,
      },
    ],
  });
  const found = extractJson(res.content);
  if (!found) {
    if (res.finishReason === "length")
      return retry("truncated", "it was cut off before the JSON ended (finish_reason length).");
    return res.content.trim()
      ? retry("invalid_json", "it contains no valid JSON object.")
      : retry("no_output", "it was empty.");
  }
  const v = p.schema.safeParse(found.value);
  return v.success ? { ok: true, value: v.data } : retry("schema_invalid", validationMessage(v.error));
}

const TOOL_REASON: Record<ToolCallError["reason"], StructuredFailureReason> = {
  invalid_json: "invalid_json",
  truncated: "truncated",
  empty_args: "schema_invalid",
  not_object: "schema_invalid",
  schema_invalid: "schema_invalid",
  unknown_tool: "no_output",
};

function fromTool<T>(p: StructuredParams<T>, res: ChatResult): Outcome<T> {
  const good = res.toolCalls.find((c) => c.name === p.name);
  if (good) return { ok: true, value: good.args as T };
  const bad = res.invalidToolCalls[0];
  if (bad) {
    const calls = [
      ...res.toolCalls.map((c) => ({ ...c, args: {} })),
      ...res.invalidToolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, args: {} })),
    ];
    return {
      ok: false,
      reason: TOOL_REASON[bad.reason],
      message: bad.message,
      repair: [
        { role: "assistant", content: res.content, toolCalls: calls },
        ...calls.map((c) => ({
          role: "tool" as const,
          toolCallId: c.id,
          content: `Error: ${bad.message} Call "${p.name}" again with complete arguments that match its schema.`,
        })),
      ],
    };
  }
  return fromText(p, res);
}

function request<T>(p: StructuredParams<T>, msgs: ChatMessage[], method: StructuredMethod) {
  const base = {
    config: p.config,
    messages: withInstruction(p, msgs, method),
    signal: p.signal,
    retry: p.retry,
    ...(p.onDelta ? { onDelta: p.onDelta } : {}),
  };
  switch (method) {
    case "tool":
      return {
        ...base,
        tools: [{ name: p.name, description: p.description ?? `Return the ${p.name} result.`, schema: p.schema }],
        toolChoice: { name: p.name },
      };
    case "json_schema":
      return {
        ...base,
        responseFormat: { type: "json_schema" as const, name: p.name, schema: jsonSchemaOf(p.schema) },
      };
    case "text":
      return base;
  }
}

const lastOutput = (res: ChatResult) => res.content || res.invalidToolCalls[0]?.rawArgs || "";

const UNSUPPORTED = /tool|function|response_format|json_schema|structured/i;

/**
 * A zod-validated value from the model. Invalid output (bad JSON, truncated, schema mismatch,
 * no call) is fed back with the validation error for up to `maxRepairs` (default 2) more answers;
 * a tool-method answer in plain text is parsed as JSON-in-text. Throws StructuredOutputError
 * (typed reason) when all fail, ProviderError on transport failure.
 */
export async function structured<T>(p: StructuredParams<T>): Promise<StructuredResult<T>> {
  let method: StructuredMethod = p.method ?? "tool";
  let msgs = [...p.messages];
  const usage: Usage = { promptTokens: 0, completionTokens: 0 };
  let latencyMs = 0;
  let attempts = 0;
  let switched = false;
  for (;;) {
    let res: ChatResult;
    try {
      res = await chat(request(p, msgs, method));
    } catch (e) {
      if (
        e instanceof ProviderError &&
        e.kind === "bad_request" &&
        method !== "text" &&
        !switched &&
        UNSUPPORTED.test(e.providerMessage ?? e.message)
      ) {
        method = "text";
        switched = true;
        continue;
      }
      throw e;
    }
    attempts += 1;
    usage.promptTokens += res.usage.promptTokens;
    usage.completionTokens += res.usage.completionTokens;
    if (res.usage.estimated) usage.estimated = true;
    latencyMs += res.latencyMs;
    if (res.refusal)
      throw new StructuredOutputError("refusal", `The model refused: ${res.refusal}`, attempts, res.refusal, usage);
    const out = method === "tool" ? fromTool(p, res) : fromText(p, res);
    if (out.ok) return { value: out.value, attempts, usage, latencyMs, method, model: res.model };
    if (attempts > (p.maxRepairs ?? 2)) {
      throw new StructuredOutputError(
        out.reason,
        `No valid "${p.name}" after ${attempts} answers: ${out.message}`,
        attempts,
        lastOutput(res),
        usage,
      );
    }
    msgs = [...msgs, ...out.repair];
  }
}
