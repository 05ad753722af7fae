import "server-only";
import {
  type ChatRequest,
  type ChatResult,
  type FinishReason,
  type ModelPort,
  type StructuredRequest,
  type StructuredResult,
} from "@/lib/engine/ports";
import { ModelCallError } from "@/lib/engine/errors";
import { chat, type ChatResult as LlmChatResult } from "@/lib/llm/invoke";
import { structured, StructuredOutputError } from "@/lib/llm/structured";
import { ProviderError } from "@/lib/llm/retry";
import type { ModelResolver } from "./resolver";

/**
 * The engine's ModelPort over lib/llm: resolves each call's ModelRef with `resolve`, leaves
 * transport retries (429/5xx/timeouts, retry-after) to lib/llm, maps its failures to
 * ModelCallError. One chat request = one model answer: invalid tool calls and refusals are handed
 * to the engine (`invalidToolCalls`, `refusal`), whose agent loop repairs them visibly (step_progress,
 * ≤ 2 repairs) or fails the step with a typed error (L1). Structured calls make ONE answer
 * (maxRepairs 0): format retries are the executor's (R5).
 */
export function llmModelPort(resolve: ModelResolver): ModelPort {
  return {
    async chat(request: ChatRequest): Promise<ChatResult> {
      const config = await resolve(request.model);
      const tools = request.tools?.map((t) => ({ name: t.name, description: t.description, schema: t.parameters }));
      const stream = request.onDelta
        ? { onDelta: request.onDelta, ...(request.onToolStart ? { onToolStart: request.onToolStart } : {}) }
        : {};
      const res = await call(() =>
        chat({
          config,
          messages: [...request.messages],
          ...(tools?.length ? { tools } : {}),
          signal: request.signal,
          ...stream,
        }),
      );
      return chatResult(res);
    },

    async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      const config = await resolve(request.model);
      try {
        const res = await call(() =>
          structured({
            config,
            messages: request.messages,
            schema: request.schema,
            name: request.name,
            description: request.description,
            maxRepairs: 0,
            signal: request.signal,
            ...(request.onDelta ? { onDelta: request.onDelta } : {}),
          }),
        );
        return { ok: true, value: res.value, usage: tokens(res.usage), latencyMs: res.latencyMs, model: res.model };
      } catch (err) {
        if (!(err instanceof StructuredOutputError)) throw err;
        return {
          ok: false,
          error: `${err.reason}: ${err.message}`,
          raw: err.lastOutput,
          usage: tokens(err.usage),
          latencyMs: 0,
          model: config.model,
        };
      }
    },
  };
}

const tokens = (u: { promptTokens: number; completionTokens: number }) => ({
  promptTokens: u.promptTokens,
  completionTokens: u.completionTokens,
});

function chatResult(res: LlmChatResult): ChatResult {
  const invalid = res.invalidToolCalls.map((e, i) => ({
    id: e.toolCallId || `invalid_call_${i + 1}`,
    name: e.toolName,
    reason: e.reason,
    message: e.message,
  }));
  return {
    content: res.content,
    toolCalls: res.toolCalls.map((t) => ({ id: t.id, name: t.name, args: t.args })),
    ...(invalid.length ? { invalidToolCalls: invalid } : {}),
    ...(res.refusal ? { refusal: res.refusal } : {}),
    usage: tokens(res.usage),
    latencyMs: res.latencyMs,
    finishReason: finishReason(res.finishReason),
    model: res.model,
  };
}

function finishReason(raw: string): FinishReason {
  switch (raw) {
    case "stop":
    case "tool_calls":
    case "length":
    case "content_filter":
      return raw;
    default:
      return "other";
  }
}

/** Runs a lib/llm call and turns ProviderError into ModelCallError (StructuredOutputError passes through). */
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ProviderError) throw toModelError(err);
    throw err;
  }
}

function toModelError(err: ProviderError): ModelCallError {
  const attempts = err.attempts > 1 ? ` after ${err.attempts} attempts` : "";
  const message = `Model call failed${attempts}: ${err.message}`;
  if (err.kind === "aborted") return new ModelCallError("aborted", message, err.status);
  if (err.kind === "timeout" && !err.retryable) return new ModelCallError("timeout", message, err.status);
  return new ModelCallError(err.retryable ? "retries_exhausted" : "permanent", message, err.status);
}
