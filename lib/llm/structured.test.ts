import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { structured, StructuredOutputError } from "./structured";
import { extractJson } from "./json";
import type { ModelConfig } from "./models";
import { startScriptedServer, type ScriptedServer } from "./scripted/server";

let server: ScriptedServer;
let config: ModelConfig;
const person = z.object({ name: z.string(), age: z.number().int() });
const ask = (content: string, extra: Partial<Parameters<typeof structured>[0]> = {}) =>
  structured({
    config,
    messages: [{ role: "user", content }],
    schema: person,
    name: "person",
    retry: { baseDelayMs: 5 },
    ...extra,
  });
const TEXT_MARKER = "Answer with only one JSON object";

beforeAll(async () => {
  server = await startScriptedServer({
    fixtures: [
      {
        rules: [
          {
            id: "legacy.400",
            priority: 10,
            match: { lastUser: "legacy", hasTools: true },
            fault: { kind: "http", status: 400, message: "This model does not support tools." },
          },
          {
            id: "legacy.text",
            priority: 10,
            match: { lastUser: "legacy", system: TEXT_MARKER },
            reply: { text: 'Sure! ```json\n{"name": "Grace", "age": 85}\n```' },
          },
          { id: "ok", match: { lastUser: "ok", schema: "person" }, reply: { json: { name: "Ada", age: 36 } } },
          {
            id: "prose",
            match: { lastUser: "prose" },
            reply: { text: 'Here you go: {"name": "Alan", "age": 41} — hope that helps.' },
          },
          {
            id: "repair",
            match: { lastUser: "repair" },
            sequence: [
              { json: { name: "Ada", age: "old" } },
              { fault: { kind: "malformed_args" } },
              { json: { name: "Ada", age: 36 } },
            ],
          },
          { id: "never", match: { lastUser: "never" }, reply: { json: { name: 7 } } },
          {
            id: "trunc",
            match: { lastUser: "trunc" },
            sequence: [{ fault: { kind: "truncated_args" } }, { json: { name: "Bo", age: 3 } }],
          },
          { id: "refuse", match: { lastUser: "refuse" }, fault: { kind: "refusal" } },
          {
            id: "text.ok",
            match: { lastUser: "plain", system: TEXT_MARKER },
            reply: { text: '{"name": "Lin", "age": 29}' },
          },
        ],
      },
    ],
  });
  config = { baseURL: server.url, apiKey: "k", model: "scripted-demo" };
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("structured", () => {
  it.each(["tool", "json_schema"] as const)("returns a validated value by %s", async (method) => {
    const r = await ask("ok", { method });
    expect(r).toMatchObject({ value: { name: "Ada", age: 36 }, attempts: 1, method });
    expect(r.usage.promptTokens).toBeGreaterThan(0);
    expect(server.requests()[0]?.schema).toBe("person");
  });

  it("asks for JSON in text with the schema in the system prompt", async () => {
    const r = await ask("plain", { method: "text" });
    expect(r.value).toEqual({ name: "Lin", age: 29 });
    const body = server.requests()[0]?.body as { messages: { role: string; content: string }[]; tools?: unknown };
    expect(body.tools).toBeUndefined();
    expect(body.messages[0]?.content).toContain('"age"');
  });

  it("repairs twice, feeding back the validation error, then succeeds", async () => {
    const r = await ask("repair");
    expect(r).toMatchObject({ value: { name: "Ada", age: 36 }, attempts: 3 });
    const second = server.requests()[1]?.body as { messages: { role: string; content: string }[] };
    const feedback = second.messages.at(-1);
    expect(feedback?.role).toBe("tool");
    expect(feedback?.content).toMatch(/age/);
    const third = server.requests()[2]?.body as { messages: { role: string; content: string }[] };
    expect(third.messages.at(-1)?.content).toMatch(/not valid JSON/);
    expect(r.usage.completionTokens).toBeGreaterThan(0);
  });

  it("fails with a typed error after 2 repairs, never returning unvalidated data", async () => {
    const err = await ask("never").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StructuredOutputError);
    expect(err).toMatchObject({ reason: "schema_invalid", attempts: 3 });
    expect(server.requests()).toHaveLength(3);
    const none = await ask("never", { maxRepairs: 0 }).catch((e: unknown) => e);
    expect(none).toMatchObject({ attempts: 1 });
  });

  it("repairs truncated arguments", async () => {
    const r = await ask("trunc");
    expect(r).toMatchObject({ value: { name: "Bo", age: 3 }, attempts: 2 });
  });

  it("reads JSON from prose when the model answers text instead of calling the tool", async () => {
    const r = await ask("prose");
    expect(r.value).toEqual({ name: "Alan", age: 41 });
  });

  it("switches to JSON-in-text when the provider rejects tools", async () => {
    const r = await ask("legacy");
    expect(r).toMatchObject({ value: { name: "Grace", age: 85 }, method: "text", attempts: 1 });
    expect(server.requests().map((q) => q.rule)).toEqual(["legacy.400", "legacy.text"]);
  });

  it("reports refusals as a typed failure", async () => {
    await expect(ask("refuse")).rejects.toMatchObject({ name: "StructuredOutputError", reason: "refusal" });
  });
});

describe("extractJson", () => {
  it("finds whole, fenced and embedded JSON", () => {
    expect(extractJson(' {"a": 1} ')).toEqual({ value: { a: 1 } });
    expect(extractJson('text\n```json\n{"a": [1, 2]}\n```\nmore')).toEqual({ value: { a: [1, 2] } });
    expect(extractJson('see [1] and {"b": "x}y"} then {"c": 2}')).toEqual({ value: { b: "x}y" } });
    expect(extractJson("only [1, 2]")).toEqual({ value: [1, 2] });
    expect(extractJson('broken {"a": ')).toBeUndefined();
    expect(extractJson("")).toBeUndefined();
  });
});
