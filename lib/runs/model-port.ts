import "server-only";
import {
  ModelCallError,
  type ChatRequest,
  type ChatResult,
  type FinishReason,
  type ModelPort,
  type StructuredRequest,
  type StructuredResult,
} from "@/lib/engine/ports";
import { chat, structured, StructuredOutputError, type ChatMessage, type ChatResult as LlmChatResult } from "@/lib/llm/invoke";
import { ProviderError } from "@/lib/llm/retry";
import type { ModelResolver } from "./model-resolver";

/** Format repairs when a model answers with only invalid tool calls (L1: ≤ 2, then a typed step error). */
export const TOOL_CALL_REPAIRS = 2;

/**
 * The engine's ModelPort over lib/llm: resolves each call's ModelRef with `resolve`, leaves
 * transport retries (429/5xx/timeouts, retry-after) to lib/llm, maps its failures to
 * ModelCallError. Structured calls make ONE answer (maxRepairs 0): format retries are the executor's (R5).
 */
export function llmModelPort(resolve: ModelResolver): ModelPort {
  return {
    async chat(request: ChatRequest): Promise<ChatResult> {
      const config = await resolve(request.model);
      const tools = request.tools?.map((t) => ({ name: t.name, description: t.description, schema: t.parameters }));
      const messages: ChatMessage[] = [...request.messages];
      let usage = { promptTokens: 0, completionTokens: 0 };
      for (let round = 0; ; round++) {
        const res = await call(() => chat({ config, messages, ...(tools?.length ? { tools } : {}), signal: request.signal }));
        usage = { promptTokens: usage.promptTokens + res.usage.promptTokens, completionTokens: usage.completionTokens + res.usage.completionTokens };
        if (res.toolCalls.length > 0 || res.invalidToolCalls.length === 0) return chatResult(res, usage);
        const problems = res.invalidToolCalls.map((e) => `${e.toolName || "(no name)"}: ${e.reason} — ${e.message}`).join("; ");
        if (round >= TOOL_CALL_REPAIRS) {
          throw new ModelCallError("permanent", `The model's tool calls stayed invalid after ${TOOL_CALL_REPAIRS} repairs: ${problems}`);
        }
        messages.push({ role: "assistant", content: res.content });
        messages.push({ role: "user", content: `Your tool call was invalid (${problems}). Call the tool again with a JSON object matching its parameters.` });
      }
    },

    async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      const config = await resolve(request.model);
      try {
        const res = await call(() =>
          structured({ config, messages: request.messages, schema: request.schema, name: request.name, description: request.description, maxRepairs: 0, signal: request.signal }),
        );
        return { ok: true, value: res.value, usage: tokens(res.usage), latencyMs: res.latencyMs, model: res.model };
      } catch (err) {
        if (!(err instanceof StructuredOutputError)) throw err;
        return { ok: false, error: `${err.reason}: ${err.message}`, raw: err.lastOutput, usage: tokens(err.usage), latencyMs: 0, model: config.model };
      }
    },
  };
}

const tokens = (u: { promptTokens: number; completionTokens: number }) => ({ promptTokens: u.promptTokens, completionTokens: u.completionTokens });

function chatResult(res: LlmChatResult, usage: { promptTokens: number; completionTokens: number }): ChatResult {
  return {
    content: res.content,
    toolCalls: res.toolCalls.map((t) => ({ id: t.id, name: t.name, args: t.args })),
    usage,
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
