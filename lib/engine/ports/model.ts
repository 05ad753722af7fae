import type { z } from "zod";
import type { ModelRef } from "@/lib/workflow/schema";
import type { TokenUsage } from "../events";

/** Model port: lib/llm adapted by the wiring layer; retries/backoff/JSON-in-text fallback live behind it (R10). */

/** A tool call the model asked for; `args` is the parsed JSON object (lib/llm validates JSON). */
export interface ModelToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/**
 * A tool call the model attempted whose arguments could not be used (lib/llm: invalid_json,
 * truncated, empty_args, not_object, unknown_tool, schema_invalid). It never runs; the agent loop
 * answers it with the error so the model can repair it (≤ 2 repairs, then the step fails, L1).
 */
export interface ModelInvalidToolCall {
  id: string;
  name: string;
  reason: string;
  message: string;
}

/** Engine-owned chat messages (provider-neutral). */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ModelToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string };

/** A tool offered to the model: `parameters` is a JSON Schema object. */
export interface ModelToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "other";

export interface ChatRequest {
  /** Resolved per R10: node/agent model, else the workflow default; null = the owner's default model. */
  model: ModelRef | null;
  messages: ChatMessage[];
  tools?: ModelToolSpec[];
  /** Aborted on cancel, step timeout, run deadline or budget exhaustion; the call must reject promptly. */
  signal: AbortSignal;
  /** Streams the answer: each text delta with its attempt number (a new attempt starts over). */
  onDelta?: (text: string, attempt: number) => void;
  /** A tool call started (its name, before its arguments arrive). */
  onToolStart?: (name: string) => void;
}

export interface ChatResult {
  content: string;
  /** Valid tool calls only (arguments parsed and, where the tool has a schema, validated). */
  toolCalls: ModelToolCall[];
  /** Attempted calls that cannot run; absent = none. */
  invalidToolCalls?: ModelInvalidToolCall[];
  /** The model declined to answer (OpenAI `message.refusal`); the agent step fails with it. Absent = none. */
  refusal?: string;
  usage: TokenUsage;
  latencyMs: number;
  finishReason: FinishReason;
  /** The model name that actually answered (for tokens_used events). */
  model: string;
}

export interface StructuredRequest<T> {
  model: ModelRef | null;
  messages: ChatMessage[];
  /** What the answer must satisfy; the adapter derives the JSON schema (z.toJSONSchema) for the provider. */
  schema: z.ZodType<T>;
  /** Name of the structured output / function, e.g. "choose_branch". */
  name: string;
  description?: string;
  signal: AbortSignal;
  /** Streams the raw answer as it arrives (see ChatRequest.onDelta). */
  onDelta?: (text: string, attempt: number) => void;
}

/**
 * A structured answer: ok=false when the model answered but not in the required shape (invalid JSON,
 * schema mismatch, refusal, truncation). The executor decides about format retries (R5: ≤ 2).
 */
export type StructuredResult<T> =
  | { ok: true; value: T; usage: TokenUsage; latencyMs: number; model: string }
  | { ok: false; error: string; raw: string; usage: TokenUsage; latencyMs: number; model: string };

/** Chat and structured calls. Retries with backoff honouring retry-after happen behind this port (R10). */
export interface ModelPort {
  chat(request: ChatRequest): Promise<ChatResult>;
  structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>>;
}
