import "server-only";
import * as z from "zod";

/** The parts of an OpenAI chat-completions request the scripted server reads (the rest passes through). */
const contentSchema = z
  .union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).loose()), z.null()])
  .optional();

const messageSchema = z
  .object({
    role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
    content: contentSchema,
    tool_calls: z
      .array(z.object({ id: z.string().optional(), function: z.object({ name: z.string() }).loose() }).loose())
      .optional(),
    tool_call_id: z.string().optional(),
  })
  .loose();

const toolSchema = z
  .object({
    type: z.literal("function"),
    function: z.object({ name: z.string(), parameters: z.unknown().optional() }).loose(),
  })
  .loose();

export const chatRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(messageSchema).min(1),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).loose().nullish(),
    tools: z.array(toolSchema).nullish(),
    tool_choice: z
      .union([
        z.enum(["none", "auto", "required"]),
        z.object({ type: z.literal("function"), function: z.object({ name: z.string() }) }).loose(),
      ])
      .nullish(),
    response_format: z
      .object({
        type: z.enum(["text", "json_object", "json_schema"]),
        json_schema: z.object({ name: z.string(), schema: z.unknown().optional() }).loose().optional(),
      })
      .loose()
      .nullish(),
  })
  .loose();
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** What rules match on, extracted once per request. */
export interface RequestFacts {
  model: string;
  lastUser: string;
  /** The first user message (a conversation's request, before any repair turns). */
  firstUser: string;
  /** Every message's role and text, in order. */
  texts: { role: RequestFacts["lastRole"]; text: string }[];
  /** The JSON schema a structured answer must match: the forced tool's parameters, else response_format's schema (JSON-in-text: none). */
  answerSchema: unknown;
  /** A structured answer is asked for: a forced tool, or a JSON response format. */
  structured: boolean;
  lastRole: "system" | "user" | "assistant" | "tool";
  system: string;
  allText: string;
  lastTool: string;
  tools: string[];
  forcedTool: string | undefined;
  responseFormat: "text" | "json_object" | "json_schema";
  schemaName: string | undefined;
  stream: boolean;
  includeUsage: boolean;
}

/** Flattens string or content-part message content to text. */
export function contentText(content: z.infer<typeof contentSchema>): string {
  if (content == null) return "";
  if (typeof content === "string") return content;
  return content.map((p) => p.text ?? "").join("");
}

function normalRole(role: ChatRequest["messages"][number]["role"]): RequestFacts["lastRole"] {
  if (role === "developer") return "system";
  if (role === "function") return "tool";
  return role;
}

/** A schema asked for in the prompt (lib/llm's JSON-in-text instruction names it): `JSON Schema (named "x")`. */
const PROMPT_SCHEMA = /JSON Schema \(named "([^"]+)"\)/;

/** Extracts the matching facts from a parsed request. */
export function requestFacts(req: ChatRequest): RequestFacts {
  const texts = req.messages.map((m) => ({ role: normalRole(m.role), text: contentText(m.content) }));
  const last = texts[texts.length - 1];
  const forced = req.tool_choice && typeof req.tool_choice === "object" ? req.tool_choice.function.name : undefined;
  const format = req.response_format?.type ?? "text";
  const system = texts
    .filter((t) => t.role === "system")
    .map((t) => t.text)
    .join("\n");
  const inPrompt = PROMPT_SCHEMA.exec(system)?.[1];
  return {
    model: req.model,
    lastUser: texts.filter((t) => t.role === "user").at(-1)?.text ?? "",
    firstUser: texts.find((t) => t.role === "user")?.text ?? "",
    texts,
    structured: forced !== undefined || format !== "text" || inPrompt !== undefined,
    answerSchema: forced
      ? req.tools?.find((t) => t.function.name === forced)?.function.parameters
      : format === "json_schema"
        ? req.response_format?.json_schema?.schema
        : undefined,
    lastRole: last?.role ?? "user",
    system,
    allText: texts.map((t) => t.text).join("\n"),
    lastTool: texts.filter((t) => t.role === "tool").at(-1)?.text ?? "",
    tools: (req.tools ?? []).map((t) => t.function.name),
    forcedTool: forced,
    responseFormat: format,
    schemaName: format === "json_schema" ? req.response_format?.json_schema?.name : (forced ?? inPrompt),
    stream: req.stream === true,
    includeUsage: req.stream_options?.include_usage === true,
  };
}

/** Deterministic token estimate (~4 characters per token, at least 1): never tiktoken, which hangs offline. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Prompt tokens of a request: every message's text plus 4 tokens of framing per message and per tool. */
export function promptTokens(req: ChatRequest): number {
  const msgs = req.messages.reduce((n, m) => n + 4 + estimateTokens(contentText(m.content)), 0);
  const tools = (req.tools ?? []).reduce((n, t) => n + 4 + estimateTokens(JSON.stringify(t.function)), 0);
  return msgs + tools + 3;
}
