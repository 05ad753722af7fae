import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { askJson, nextPath, type JsonCallParams } from "./json-call";
import type { ModelConfig } from "./models";
import type { ProviderError } from "./retry";
import { startScriptedServer, type ScriptedServer } from "./scripted/server";
import { toStrictSchema, type JsonSchema } from "./strict-schema";

/**
 * Each structured-output path over real HTTP against the scripted server answering like a provider
 * that supports only some of them (lib/llm/scripted/personality.ts): the path that works is used,
 * refused paths are skipped, ignored ones still have their JSON read (and say they were not
 * honoured), tool arguments sent as an object and answers streamed in tiny pieces are read.
 */

const ANSWER = {
  title: "Plan",
  steps: [
    { id: "a", note: "first" },
    { id: "b", note: null },
  ],
  extra: { k: "v" },
};
const LOOSE: JsonSchema = {
  type: "object",
  properties: {
    title: { type: "string" },
    steps: {
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "string", pattern: "^[a-z]+$" }, note: { type: "string" } },
        required: ["id"],
      },
    },
    extra: { type: "object", additionalProperties: { type: "string" } },
  },
  required: ["title", "steps"],
};

let server: ScriptedServer;
const config = (personality: string, model = "scripted-demo"): ModelConfig => ({
  baseURL: server.url.replace(/\/v1$/, `/p/${personality}/v1`),
  apiKey: "k",
  model,
  timeoutMs: 10_000,
});
const ask = (personality: string, extra: Partial<JsonCallParams> = {}) =>
  askJson({
    config: config(personality),
    name: "plan_answer",
    messages: [{ role: "user", content: "make a plan" }],
    schema: { loose: LOOSE, strict: toStrictSchema(LOOSE) },
    retry: { baseDelayMs: 5 },
    ...extra,
  });
const statuses = () =>
  server
    .requests()
    .map(
      (r) =>
        `${r.status}:${(r.body as { response_format?: { type: string }; tool_choice?: unknown }).response_format?.type ?? ((r.body as { tool_choice?: unknown }).tool_choice ? "tool" : "text")}`,
    );

beforeAll(async () => {
  server = await startScriptedServer({
    fixtures: [{ rules: [{ id: "plan", match: { schema: "plan_answer" }, reply: { json: ANSWER } }] }],
  });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("structured-output paths against providers that support only some", () => {
  it("strict json_schema (OpenAI): the strict schema passes the provider's strict check and the answer is pure JSON", async () => {
    const r = await ask("openai");
    expect(r).toMatchObject({ path: "json_schema", honoured: true, rejected: [], data: ANSWER });
    expect(statuses()).toEqual(["200:json_schema"]);
    const refused = await askJson({
      config: config("openai"),
      name: "plan_answer",
      messages: [{ role: "user", content: "x" }],
      schema: { loose: LOOSE, strict: LOOSE },
      only: true,
    }).catch((e: ProviderError) => e);
    // the provider's words tell the paths apart; what people see is only the status summary
    expect((refused as ProviderError).providerMessage).toMatch(
      /Invalid schema for response_format 'plan_answer'.*additionalProperties must be false/,
    );
    expect(String(refused)).toBe("ProviderError: the provider refused the request (HTTP 400, invalid_request_error)");
  });

  it("forced tool call when response_format is refused, reading arguments sent as an object", async () => {
    const r = await ask("tools-only");
    expect(r).toMatchObject({ path: "tool", honoured: true, rejected: ["json_schema"], data: ANSWER });
    expect(statuses()).toEqual(["400:json_schema", "200:tool"]);
    const streamed = await ask("tools-only", { path: "tool", onDelta: () => undefined });
    expect(streamed).toMatchObject({ path: "tool", data: ANSWER });
  });

  it("JSON mode when tool_choice and json_schema are refused, reassembling an answer streamed three characters at a time", async () => {
    const pieces: string[] = [];
    const r = await ask("json-mode", { onDelta: (t) => pieces.push(t) });
    expect(r).toMatchObject({ path: "json_object", honoured: true, rejected: ["json_schema", "tool"], data: ANSWER });
    expect(pieces.length).toBeGreaterThan(20);
    expect(pieces.every((p) => p.length <= 3)).toBe(true);
    expect(pieces.join("")).toBe(JSON.stringify(ANSWER));
    const sent = server.requests().at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(sent.messages[0]!.content).toContain('matching this JSON Schema (named "plan_answer")');
  });

  it("JSON in text from a provider that ignores response_format and refuses tools: read from prose and fences, the path moving on to text", async () => {
    const ignored = await ask("text-only");
    expect(ignored).toMatchObject({ path: "json_schema", honoured: false, data: ANSWER });
    expect(ignored.text).toMatch(/^Sure! Here is the JSON you asked for:\n\n```json\n/);
    expect(nextPath(ignored)).toBe("tool");
    const refused = await ask("text-only", { path: "tool" });
    expect(refused).toMatchObject({ path: "json_object", honoured: false, rejected: ["tool"], data: ANSWER });
    expect(nextPath(refused)).toBe("text");
    const text = await ask("text-prose", { path: "text" });
    expect(text).toMatchObject({ path: "text", honoured: true, data: ANSWER });
    expect(text.text).toMatch(/^Here is the result: \{/);
  });

  it("throws when the only path allowed is refused, and on transport failures, rather than guessing", async () => {
    await expect(ask("tools-only", { path: "json_schema", only: true })).rejects.toMatchObject({ kind: "bad_request" });
    await expect(
      askJson({
        config: { ...config("openai"), baseURL: "http://127.0.0.1:1/v1" },
        name: "x",
        messages: [{ role: "user", content: "x" }],
        schema: { loose: LOOSE },
        retry: { maxAttempts: 1 },
      }),
    ).rejects.toMatchObject({ kind: "connection" });
  });
});
