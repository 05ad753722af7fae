import "server-only";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as z from "zod";

/**
 * Fixture format of the scripted model server (one JSON file = one FixtureFile).
 *
 * A request is answered by the first matching rule: rules are ordered by `priority` (higher first),
 * then by load order (files alphabetically, rules in file order). Every `match` field that is set
 * must hold; an empty `match` matches everything. See lib/llm/scripted/README.md for examples.
 */

const pattern = z.union([
  z.string().min(1),
  z
    .object({
      regex: z.string().min(1),
      flags: z
        .string()
        .regex(/^[imsu]*$/)
        .optional(),
    })
    .strict(),
]);
/** A substring (case-insensitive) or `{regex, flags}` tested against some request text. */
export type Pattern = z.infer<typeof pattern>;

const match = z
  .object({
    /** The last user message contains this (case-insensitive substring) or matches this regex. */
    lastUser: pattern.optional(),
    /** Any message of any role contains this. */
    anyMessage: pattern.optional(),
    /** The system prompt(s) contain every one of these markers (case-sensitive substrings). */
    system: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** Every one of these tool names is offered in `tools`. */
    tools: z.array(z.string().min(1)).min(1).optional(),
    /** true: some tools are offered; false: none are. */
    hasTools: z.boolean().optional(),
    /** The response_format json_schema name, or the function forced by tool_choice (LangChain structured output). */
    schema: z.string().min(1).optional(),
    /** The response_format type requested ("text" when none). */
    responseFormat: z.enum(["text", "json_object", "json_schema"]).optional(),
    /** true: a structured answer is asked for (a forced tool, or a JSON response format); false: a free one. */
    structured: z.boolean().optional(),
    /** The request's model name (exact string or pattern). */
    model: pattern.optional(),
    /** Role of the last message, e.g. "tool" to answer after a tool result. */
    lastRole: z.enum(["system", "user", "assistant", "tool"]).optional(),
  })
  .strict();
export type Match = z.infer<typeof match>;

const toolCall = z
  .object({
    name: z.string().min(1),
    /** Arguments as an object (serialised with JSON.stringify; string values are templated). */
    args: z.record(z.string(), z.unknown()).optional(),
    /** Raw arguments string sent verbatim (for malformed cases); wins over `args`. */
    rawArgs: z.string().optional(),
  })
  .strict();

const httpFault = z
  .object({
    kind: z.literal("http"),
    status: z.number().int().min(400).max(599),
    /** Seconds for the `retry-after` header (429/503). */
    retryAfter: z.number().min(0).optional(),
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.string().optional(),
  })
  .strict();

const toolFault = (kind: "malformed_args" | "truncated_args" | "empty_args") =>
  z.object({ kind: z.literal(kind), tool: z.string().min(1).optional() }).strict();

/** An injected failure; each arrives at the client exactly as a real provider's would. */
export const faultSchema = z.discriminatedUnion("kind", [
  httpFault,
  toolFault("malformed_args"),
  toolFault("truncated_args"),
  toolFault("empty_args"),
  z.object({ kind: z.literal("unknown_tool"), name: z.string().min(1).optional() }).strict(),
  z.object({ kind: z.literal("refusal"), message: z.string().optional() }).strict(),
  z.object({ kind: z.literal("delay"), ms: z.number().int().min(0).max(600_000) }).strict(),
  z.object({ kind: z.literal("reset"), afterChunks: z.number().int().min(0).default(2) }).strict(),
  z.object({ kind: z.literal("stall"), afterChunks: z.number().int().min(0).default(2) }).strict(),
]);
export type Fault = z.infer<typeof faultSchema>;

/** One answer. Parts combine like a real assistant message (text plus tool calls). */
export const replySchema = z
  .object({
    text: z.string().optional(),
    toolCalls: z.array(toolCall).min(1).optional(),
    /** Structured value: sent as JSON content, or as a call of the forced tool (tool_choice). */
    json: z.unknown().optional(),
    /**
     * "closest": answers a structured choice (an enum property of the requested schema, e.g. a
     * router's `branch`) with the option whose line in the prompt is most like the
     * conversation before it (judge.ts, lib/similarity.ts): the offline demo's stand-in for a judging model.
     */
    choose: z.literal("closest").optional(),
    refusal: z.string().optional(),
    finishReason: z.enum(["stop", "length", "tool_calls", "content_filter"]).optional(),
    delayMs: z.number().int().min(0).max(600_000).optional(),
    /**
     * Streams slowly, like a real model writing: the text in pieces of `chunkChars` characters
     * (default: about three words), one every `chunkMs` ms (streamed answers only).
     */
    pace: z
      .object({
        chunkMs: z.number().int().min(1).max(10_000),
        chunkChars: z.number().int().min(1).max(10_000).optional(),
      })
      .strict()
      .optional(),
    /** Fail instead of answering (useful inside a sequence). */
    fault: faultSchema.optional(),
  })
  .strict()
  .refine((r) => Object.keys(r).some((k) => k !== "finishReason" && k !== "delayMs" && k !== "pace"), {
    message: "a reply needs text, toolCalls, json, choose, refusal or fault",
  });
export type Reply = z.infer<typeof replySchema>;

export const ruleSchema = z
  .object({
    /** Unique name; sent back in the `x-scripted-rule` header and used to key sequences. */
    id: z.string().regex(/^[A-Za-z0-9_.:-]{1,80}$/, "letters, digits, _ . : - (max 80)"),
    description: z.string().optional(),
    /** Higher first; ties keep load order. Default 0. */
    priority: z.number().default(0),
    match: match.default({}),
    /**
     * A request this rule stands for. When no rule matches a request, the rules with an example whose
     * match holds apart from its message patterns (lastUser, anyMessage) compete, and the one whose
     * example is most like the request's first user message (lib/similarity.ts) answers (rules.ts
     * `nearestExample`): the offline demo answers a request it has no script for with its closest one.
     */
    example: z.string().min(1).max(4000).optional(),
    reply: replySchema.optional(),
    /** Replies consumed one per call; see `then`. */
    sequence: z.array(replySchema).min(1).optional(),
    /** After the sequence: "repeat" the last reply (default) or "cycle" from the start. */
    then: z.enum(["repeat", "cycle"]).default("repeat"),
    /** Injected for the first `times` calls of this rule (every call when `times` is absent). */
    fault: faultSchema.optional(),
    times: z.number().int().min(1).optional(),
  })
  .strict()
  .refine((r) => (r.reply ? 1 : 0) + (r.sequence ? 1 : 0) === 1 || (r.fault && !r.times && !r.reply && !r.sequence), {
    message: "a rule needs exactly one of reply or sequence (or only a fault without `times`)",
  });
export type Rule = z.infer<typeof ruleSchema>;

export const fixtureFileSchema = z
  .object({
    $schema: z.string().optional(),
    description: z.string().optional(),
    /** Model names listed by GET /v1/models (in addition to "scripted-demo"). */
    models: z.array(z.string().min(1)).optional(),
    rules: z.array(ruleSchema),
  })
  .strict();
export type FixtureFile = z.infer<typeof fixtureFileSchema>;
/** A fixture as written by hand (defaults not yet applied). */
export type FixtureFileInput = z.input<typeof fixtureFileSchema>;

/** A validated fixture file and where it came from (a path, or "inline[i]"). */
export interface FixtureSet {
  source: string;
  fixture: FixtureFile;
}

/** Thrown on an invalid fixture; the message names the source and every bad path. */
export class FixtureError extends Error {
  constructor(
    readonly source: string,
    readonly issues: string[],
  ) {
    super(`Invalid scripted-model fixture ${source}:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "FixtureError";
  }
}

/** Validates one fixture object; `source` is used in error messages. */
export function parseFixture(source: string, data: unknown): FixtureSet {
  const result = fixtureFileSchema.safeParse(data);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`);
    throw new FixtureError(source, issues);
  }
  const ids = new Set<string>();
  for (const [i, rule] of result.data.rules.entries()) {
    if (ids.has(rule.id)) throw new FixtureError(source, [`rules.${i}.id: duplicate rule id "${rule.id}"`]);
    ids.add(rule.id);
  }
  return { source, fixture: result.data };
}

/** Reads and validates one JSON fixture file (syntax errors also name the file). */
export function loadFixtureFile(file: string): FixtureSet {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new FixtureError(file, [`(root): ${(e as Error).message}`]);
  }
  return parseFixture(file, data);
}

/** Loads every *.json file of a directory, alphabetically (so load order is stable). */
export function loadFixtureDir(dir: string): FixtureSet[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => loadFixtureFile(path.join(dir, f)));
}

/** The directory of the fixtures shipped with Weft (lib/llm/scripted/fixtures). */
export const DEFAULT_FIXTURE_DIR = path.join(import.meta.dirname, "fixtures");
