import "server-only";
import type { ServerResponse } from "node:http";
import { argPieces, completionTokens, newId, textPieces, type OutMessage, type Plan } from "./respond";

/** Per-call context for writing a completion. */
export interface SendContext {
  model: string;
  promptTokens: number;
  includeUsage: boolean;
  headers: Record<string, string>;
  /** Tool arguments as a JSON object instead of a string (a provider quirk). Default false. */
  argsAsObject?: boolean;
  /** Stream pieces of this many characters. Default: about three words of text, 24 characters of arguments. */
  chunkChars?: number;
  /** Called as each text piece of a stream is written (benchmarks stamp the provider's chunk with it). */
  onChunk?: (text: string) => void;
}

/** Arguments as sent: the string, or (argsAsObject) the object it holds when it parses. */
function wireArgs(args: string, asObject: boolean | undefined): unknown {
  if (!asObject) return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

const usageOf = (m: OutMessage, promptTokens: number) => {
  const completion = completionTokens(m);
  return { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion };
};

/** Writes a JSON body with the given status and headers. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data), ...headers });
  res.end(data);
}

/** Answers a non-streaming chat completion (a `cut` here means: reset at once, or never answer). */
export function sendCompletion(res: ServerResponse, plan: Extract<Plan, { kind: "message" }>, ctx: SendContext): void {
  if (plan.cut?.mode === "reset") {
    res.socket?.resetAndDestroy();
    return;
  }
  if (plan.cut?.mode === "stall") return;
  const m = plan.message;
  const message: Record<string, unknown> = { role: "assistant", content: m.content, refusal: m.refusal };
  if (m.toolCalls.length) {
    message.tool_calls = m.toolCalls.map((t) => ({
      id: t.id,
      type: "function",
      function: { name: t.name, arguments: wireArgs(t.arguments, ctx.argsAsObject) },
    }));
  }
  sendJson(
    res,
    200,
    {
      id: newId("chatcmpl-"),
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: ctx.model,
      system_fingerprint: "fp_scripted",
      choices: [{ index: 0, message, logprobs: null, finish_reason: m.finishReason }],
      usage: usageOf(m, ctx.promptTokens),
    },
    ctx.headers,
  );
}

const fixedPieces = (text: string, n: number) =>
  Array.from({ length: Math.ceil(text.length / n) }, (_, i) => text.slice(i * n, (i + 1) * n));

/** The delta objects of a streamed message, in order (without the final finish_reason chunk). */
export function deltas(
  m: OutMessage,
  style: Pick<SendContext, "argsAsObject" | "chunkChars"> = {},
): Record<string, unknown>[] {
  const text = (s: string) => (style.chunkChars ? fixedPieces(s, style.chunkChars) : textPieces(s));
  const args = (s: string) => (style.chunkChars ? fixedPieces(s, style.chunkChars) : argPieces(s));
  const out: Record<string, unknown>[] = [{ role: "assistant", content: "", refusal: null }];
  for (const piece of text(m.content ?? "")) out.push({ content: piece });
  for (const piece of text(m.refusal ?? "")) out.push({ refusal: piece });
  m.toolCalls.forEach((t, index) => {
    const whole = wireArgs(t.arguments, style.argsAsObject);
    if (typeof whole !== "string") {
      out.push({ tool_calls: [{ index, id: t.id, type: "function", function: { name: t.name, arguments: whole } }] });
      return;
    }
    out.push({ tool_calls: [{ index, id: t.id, type: "function", function: { name: t.name, arguments: "" } }] });
    for (const piece of args(t.arguments)) out.push({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  return out;
}

/**
 * Streams a completion as server-sent events, like OpenAI: a role chunk, content/refusal/tool-call
 * deltas, a chunk with finish_reason, a usage chunk (choices: []) when stream_options.include_usage,
 * then `data: [DONE]`. A `cut` stops after `afterChunks` delta chunks: "reset" destroys the socket
 * with a TCP RST, "stall" keeps it open and silent (the client must time out).
 */
export async function sendStream(
  res: ServerResponse,
  plan: Extract<Plan, { kind: "message" }>,
  ctx: SendContext,
): Promise<void> {
  const id = newId("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const usageField = ctx.includeUsage ? { usage: null } : {};
  const chunk = (choices: unknown[], extra: Record<string, unknown> = usageField) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: ctx.model, system_fingerprint: "fp_scripted", choices, ...extra })}\n\n`;
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    ...ctx.headers,
  });
  const pace = plan.pace;
  const all = deltas(plan.message, pace?.chunkChars ? { ...ctx, chunkChars: pace.chunkChars } : ctx);
  const limit = plan.cut ? Math.min(plan.cut.afterChunks, all.length - 1) : all.length;
  const t0 = performance.now();
  let n = 0;
  for (const delta of all.slice(0, limit)) {
    const text = typeof delta.content === "string" ? delta.content : "";
    if (pace && text) {
      // paced against the start (no drift): piece n goes out at n × chunkMs
      const due = t0 + n++ * pace.chunkMs - performance.now();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
      if (res.destroyed) return;
    }
    res.write(chunk([{ index: 0, delta, logprobs: null, finish_reason: null }]));
    if (text) ctx.onChunk?.(text);
  }
  if (plan.cut?.mode === "reset") {
    // let the chunks reach the client before the RST (a reset discards unsent data)
    await new Promise<void>((resolve) => res.write("", () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 30));
    res.socket?.resetAndDestroy();
    return;
  }
  if (plan.cut?.mode === "stall") return;
  res.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: plan.message.finishReason }]));
  if (ctx.includeUsage) res.write(chunk([], { usage: usageOf(plan.message, ctx.promptTokens) }));
  res.end("data: [DONE]\n\n");
}
