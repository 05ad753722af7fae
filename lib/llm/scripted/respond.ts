import "server-only";
import { randomBytes } from "node:crypto";
import type { Fault, Reply } from "./fixture";
import { estimateTokens, type RequestFacts } from "./request";
import { closestChoice } from "./judge";
import { fallbackReply, renderDeep, renderTemplate, type Decision } from "./rules";

/** An assistant message ready to be sent as JSON or as SSE chunks. */
export interface OutMessage {
  content: string | null;
  refusal: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: "stop" | "length" | "tool_calls" | "content_filter";
}

/** What the server does for one chat-completions call. */
export type Plan =
  | { kind: "error"; status: number; headers: Record<string, string>; body: ProviderErrorBody; delayMs: number }
  | {
      kind: "message";
      message: OutMessage;
      delayMs: number;
      cut?: { mode: "reset" | "stall"; afterChunks: number };
      pace?: { chunkMs: number; chunkChars?: number };
    };

/** The error JSON shape of OpenAI: `{error: {message, type, param, code}}`. */
export interface ProviderErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** A fresh id with an OpenAI-like prefix (every completion and tool call is unique). */
export const newId = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;

/** Builds an error body like OpenAI's. */
export function errorBody(message: string, type: string, code: string | null = null): ProviderErrorBody {
  return { error: { message, type, param: null, code } };
}

/** Default message/type/code per status, modelled on what OpenAI sends. */
function httpDefaults(status: number, model: string): [string, string, string | null] {
  switch (status) {
    case 401:
      return [
        "Incorrect API key provided: sk-scr***. You can find your API key in your provider's dashboard.",
        "invalid_request_error",
        "invalid_api_key",
      ];
    case 403:
      return ["You are not allowed to access this model.", "invalid_request_error", "permission_denied"];
    case 404:
      return [
        `The model \`${model}\` does not exist or you do not have access to it.`,
        "invalid_request_error",
        "model_not_found",
      ];
    case 429:
      return [`Rate limit reached for ${model} (scripted). Please try again later.`, "requests", "rate_limit_exceeded"];
    case 500:
      return ["The server had an error while processing your request. Sorry about that!", "server_error", null];
    case 503:
      return ["The engine is currently overloaded, please try again later.", "server_error", "service_unavailable"];
    default:
      return status >= 500
        ? [`Scripted server error ${status}.`, "server_error", null]
        : [`Scripted request error ${status}.`, "invalid_request_error", null];
  }
}

function messageFromReply(reply: Reply, f: RequestFacts, call: number): OutMessage {
  const toolCalls = (reply.toolCalls ?? []).map((tc) => ({
    id: newId("call_"),
    name: tc.name,
    arguments: tc.rawArgs ?? JSON.stringify(renderDeep(tc.args ?? {}, f, call)),
  }));
  let content = reply.text === undefined ? null : renderTemplate(reply.text, f, call);
  const chosen = reply.choose === "closest" ? closestChoice(f) : undefined;
  if (reply.choose && !chosen)
    content = `${content ?? ""}Scripted judge: this request asks for no choice (no enum in its answer schema).`;
  const value = chosen ?? (reply.json === undefined ? undefined : renderDeep(reply.json, f, call));
  if (value !== undefined) {
    const json = JSON.stringify(value);
    if (f.forcedTool) toolCalls.push({ id: newId("call_"), name: f.forcedTool, arguments: json });
    else content = (content ?? "") + json;
  }
  const refusal = reply.refusal === undefined ? null : renderTemplate(reply.refusal, f, call);
  const finishReason = reply.finishReason ?? (toolCalls.length ? "tool_calls" : "stop");
  return { content: content ?? (toolCalls.length || refusal ? null : ""), refusal, toolCalls, finishReason };
}

/** The tool a tool-call fault targets: explicit, else the forced one, else the first offered. */
const faultTool = (explicit: string | undefined, f: RequestFacts) => explicit ?? f.forcedTool ?? f.tools[0] ?? "tool";

/** Arguments the reply would have sent to `tool` (used to build realistic truncations). */
function intendedArgs(msg: OutMessage, tool: string, f: RequestFacts): string {
  const own = msg.toolCalls.find((t) => t.name === tool)?.arguments;
  return own && own.length > 8
    ? own
    : JSON.stringify({ input: f.lastUser || "the user's request", reason: "scripted truncated arguments" });
}

function toolFaultMessage(fault: Fault, base: OutMessage, f: RequestFacts): OutMessage {
  const call = (name: string, args: string) => ({ id: newId("call_"), name, arguments: args });
  switch (fault.kind) {
    case "malformed_args":
      return {
        content: null,
        refusal: null,
        toolCalls: [call(faultTool(fault.tool, f), '{"input": "unterminated, "items": [1, 2,, }')],
        finishReason: "tool_calls",
      };
    case "truncated_args": {
      const tool = faultTool(fault.tool, f);
      const full = intendedArgs(base, tool, f);
      return {
        content: null,
        refusal: null,
        toolCalls: [call(tool, full.slice(0, Math.ceil(full.length / 2)))],
        finishReason: "length",
      };
    }
    case "empty_args":
      return {
        content: null,
        refusal: null,
        toolCalls: [call(faultTool(fault.tool, f), "")],
        finishReason: "tool_calls",
      };
    case "unknown_tool":
      return {
        content: null,
        refusal: null,
        toolCalls: [call(fault.name ?? "no_such_tool", "{}")],
        finishReason: "tool_calls",
      };
    case "refusal":
      return {
        content: null,
        refusal: fault.message ?? "I'm sorry, but I can't help with that request.",
        toolCalls: [],
        finishReason: "stop",
      };
    default:
      return base;
  }
}

/** Turns a rule decision into what to send. Faults become errors, broken messages or cut streams. */
export function planFor(decision: Decision, f: RequestFacts): Plan {
  const reply = decision.reply ?? fallbackReply(f);
  const base = messageFromReply(reply, f, decision.call);
  const delayMs = reply.delayMs ?? 0;
  if (decision.kind === "reply")
    return { kind: "message", message: base, delayMs, ...(reply.pace ? { pace: reply.pace } : {}) };
  const fault = decision.fault;
  switch (fault.kind) {
    case "http": {
      const [message, type, code] = httpDefaults(fault.status, f.model);
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
      return {
        kind: "error",
        status: fault.status,
        headers,
        body: errorBody(fault.message ?? message, fault.type ?? type, fault.code ?? code),
        delayMs,
      };
    }
    case "delay":
      return { kind: "message", message: base, delayMs: delayMs + fault.ms };
    case "reset":
    case "stall":
      return { kind: "message", message: base, delayMs, cut: { mode: fault.kind, afterChunks: fault.afterChunks } };
    default:
      return { kind: "message", message: toolFaultMessage(fault, base, f), delayMs };
  }
}

/** Completion tokens of a message (same estimate as prompts). */
export function completionTokens(m: OutMessage): number {
  const text = (m.content ?? "") + (m.refusal ?? "") + m.toolCalls.map((t) => t.name + t.arguments).join("");
  return estimateTokens(text);
}

/** Splits text into stream pieces of about three words (whitespace kept, so pieces re-join exactly). */
export function textPieces(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 3) out.push(words.slice(i, i + 3).join(""));
  return out;
}

/** Splits tool arguments into 24-character pieces. */
export function argPieces(args: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 24) out.push(args.slice(i, i + 24));
  return out;
}
