import "server-only";
import { strictSchemaProblems, type JsonSchema } from "../strict-schema";
import type { OutMessage } from "./respond";
import type { ChatRequest, RequestFacts } from "./request";

/**
 * Provider personalities: the scripted server answering like providers that support only some
 * structured-output paths. One server serves them all: a request to `/p/<name>/v1/…` gets personality
 * `<name>` (the server's default otherwise), so a test or the e2e suite configures a "provider"
 * by its base URL. Rules answer as usual; the personality decides what the provider refuses
 * (400, like OpenAI's error body), what it ignores, and how its answer looks on the wire.
 */

/** How a provider treats one request parameter. */
export type Treatment = "ok" | "reject" | "ignore";

export interface Personality {
  /** response_format json_schema: "strict" = OpenAI (a strict schema must be in the strict subset). */
  jsonSchema: Treatment | "strict";
  /** response_format json_object. */
  jsonObject: Treatment;
  /** tools at all. */
  tools: "ok" | "reject";
  /** tool_choice forcing a function. */
  toolChoice: Treatment;
  /** Tool arguments sent as a JSON object instead of a string. */
  argsAsObject: boolean;
  /** JSON answered as content comes wrapped in prose, in a code fence, or bare. */
  wrap: "none" | "prose" | "fence";
  /** Streamed text and arguments in pieces of this many characters (default: about three words / 24 chars). */
  chunkChars?: number;
}

const PLAIN: Personality = {
  jsonSchema: "ok",
  jsonObject: "ok",
  tools: "ok",
  toolChoice: "ok",
  argsAsObject: false,
  wrap: "none",
};

/** The named personalities. */
export const PERSONALITIES = {
  /** Everything works (the default). */
  plain: PLAIN,
  /** OpenAI: strict json_schema checked against the strict subset, tools, JSON mode. */
  openai: { ...PLAIN, jsonSchema: "strict" },
  /** Function calling only (older vLLM / OpenAI-compatible gateways): no response_format; arguments as an object. */
  "tools-only": { ...PLAIN, jsonSchema: "reject", jsonObject: "reject", argsAsObject: true },
  /** JSON mode only (Ollama-like): tool_choice and json_schema refused; JSON content, tiny stream pieces. */
  "json-mode": { ...PLAIN, jsonSchema: "reject", toolChoice: "reject", chunkChars: 3 },
  /** Plain chat only: response_format ignored, tools refused, JSON wrapped in prose and a code fence. */
  "text-only": {
    jsonSchema: "ignore",
    jsonObject: "ignore",
    tools: "reject",
    toolChoice: "reject",
    argsAsObject: false,
    wrap: "fence",
  },
  /** Plain chat that wraps its JSON in prose without a fence. */
  "text-prose": {
    jsonSchema: "ignore",
    jsonObject: "ignore",
    tools: "reject",
    toolChoice: "reject",
    argsAsObject: false,
    wrap: "prose",
  },
} satisfies Record<string, Personality>;

export type PersonalityName = keyof typeof PERSONALITIES;

/** The personality of a name, or undefined. */
export const personalityOf = (name: string): Personality | undefined =>
  (PERSONALITIES as Record<string, Personality>)[name];

/** What the provider refuses in this request: an OpenAI-like 400 message, or undefined. */
export function refusal(p: Personality, req: ChatRequest): string | undefined {
  const format = req.response_format;
  const forced = req.tool_choice && typeof req.tool_choice === "object";
  if (req.tools?.length && p.tools === "reject") return "This model does not support tools: 'tools' is not supported.";
  if (forced && p.toolChoice === "reject")
    return "'tool_choice' with a named function is not supported by this model; use \"auto\".";
  if (format?.type === "json_object" && p.jsonObject === "reject")
    return "response_format of type 'json_object' is not supported by this model.";
  if (format?.type !== "json_schema") return undefined;
  if (p.jsonSchema === "reject") return "response_format of type 'json_schema' is not supported by this model.";
  const strict = (format.json_schema as { strict?: unknown } | undefined)?.strict === true;
  if (p.jsonSchema !== "strict" || !strict) return undefined;
  const problems = strictSchemaProblems((format.json_schema?.schema ?? {}) as JsonSchema);
  if (problems.length === 0) return undefined;
  return `Invalid schema for response_format '${format.json_schema?.name}': ${problems.slice(0, 3).join("; ")}.`;
}

/** The facts the answer is rendered from: an ignored format or tool_choice answers as plain content. */
export function renderFacts(p: Personality, f: RequestFacts): RequestFacts {
  const ignoreFormat =
    (f.responseFormat === "json_schema" && p.jsonSchema === "ignore") ||
    (f.responseFormat === "json_object" && p.jsonObject === "ignore");
  const ignoreTool = f.forcedTool !== undefined && p.toolChoice === "ignore";
  if (!ignoreFormat && !ignoreTool) return f;
  return {
    ...f,
    ...(ignoreFormat ? { responseFormat: "text" as const } : {}),
    ...(ignoreTool ? { forcedTool: undefined } : {}),
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The message as this provider writes it: JSON content wrapped in prose or a fence. */
export function styled(p: Personality, m: OutMessage): OutMessage {
  if (p.wrap === "none" || !m.content || !isJson(m.content.trim())) return m;
  const pretty = JSON.stringify(JSON.parse(m.content), null, 2);
  const content =
    p.wrap === "fence"
      ? `Sure! Here is the JSON you asked for:\n\n\`\`\`json\n${pretty}\n\`\`\`\n\nLet me know if you want any changes.`
      : `Here is the result: ${m.content} I hope this is what you need.`;
  return { ...m, content };
}
