import { getEventListeners } from "node:events";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { chat, ToolCallError, type ChatMessage, type ToolSpec } from "./invoke";
import {
  CHAT_MODEL_CACHE_MAX,
  chatModelFor,
  defaultModelConfig,
  modelLabel,
  scriptedModelConfig,
  type ModelConfig,
} from "./models";
import { ProviderError } from "./retry";
import { startScriptedServer, type ScriptedServer } from "./scripted/server";

let server: ScriptedServer;
let config: ModelConfig;
const user = (content: string): ChatMessage[] => [{ role: "user", content }];
const search: ToolSpec = {
  name: "search",
  description: "Search the web",
  schema: z.object({ query: z.string().min(1), limit: z.number().int().optional() }),
};
const fast = { baseDelayMs: 5 };

beforeAll(async () => {
  server = await startScriptedServer({
    fixtures: [
      {
        rules: [
          { id: "text", match: { lastUser: "hello" }, reply: { text: "Hi there, friend." } },
          {
            id: "tool",
            match: { lastUser: "find", lastRole: "user" },
            reply: { toolCalls: [{ name: "search", args: { query: "{{lastUser}}" } }] },
          },
          { id: "after", match: { lastRole: "tool" }, reply: { text: "Found: {{lastTool}}" } },
          {
            id: "bad-schema",
            match: { lastUser: "wrongtype" },
            reply: { toolCalls: [{ name: "search", args: { query: 42 } }] },
          },
          { id: "malformed", match: { lastUser: "malformed" }, fault: { kind: "malformed_args" } },
          { id: "truncated", match: { lastUser: "truncated" }, fault: { kind: "truncated_args" } },
          { id: "unknown", match: { lastUser: "unknown" }, fault: { kind: "unknown_tool" } },
          { id: "empty", match: { lastUser: "empty" }, fault: { kind: "empty_args" } },
          { id: "refuse", match: { lastUser: "refuse" }, fault: { kind: "refusal", message: "No." } },
          {
            id: "flaky",
            match: { lastUser: "flaky" },
            fault: { kind: "http", status: 503 },
            times: 2,
            reply: { text: "recovered" },
          },
          {
            id: "stall",
            match: { lastUser: "stall" },
            fault: { kind: "stall" },
            times: 1,
            reply: { text: "second try" },
          },
          {
            id: "long",
            match: { lastUser: "long" },
            reply: { text: "a streamed answer that is long enough to need several chunks" },
          },
          {
            id: "slow-writer",
            match: { lastUser: "write slowly" },
            reply: {
              text: "a local model writing its long answer piece by piece",
              pace: { chunkMs: 80, chunkChars: 4 },
            },
          },
          {
            id: "gaps",
            match: { lastUser: "gaps" },
            reply: { text: "one two three", pace: { chunkMs: 700, chunkChars: 4 } },
          },
          {
            id: "reset",
            match: { lastUser: "cut" },
            fault: { kind: "reset", afterChunks: 2 },
            times: 1,
            reply: { text: "one two three four five six seven" },
          },
        ],
      },
    ],
  });
  config = { baseURL: server.url, apiKey: "sk-test", model: "scripted-demo" };
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("chat", () => {
  it("returns content, finish reason, usage and latency", async () => {
    const r = await chat({ config, messages: [{ role: "system", content: "Be nice." }, ...user("hello")] });
    expect(r).toMatchObject({
      content: "Hi there, friend.",
      refusal: null,
      toolCalls: [],
      invalidToolCalls: [],
      finishReason: "stop",
      attempts: 1,
      model: "scripted-demo",
    });
    expect(r.usage.completionTokens).toBe(Math.ceil("Hi there, friend.".length / 4));
    expect(r.usage.promptTokens).toBeGreaterThan(0);
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect(r.id).toMatch(/^chatcmpl-/);
  });

  it("leaves no abort listener on a long-lived caller signal (the SDK never removes the one it adds)", async () => {
    const run = new AbortController();
    for (let i = 0; i < 15; i++) await chat({ config, messages: user("hello"), signal: run.signal });
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
    await chat({ config, messages: user("long"), signal: run.signal, onDelta: () => undefined });
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  it("reuses one client per config; another key, model or URL gets its own", () => {
    const a = chatModelFor(config);
    expect(chatModelFor({ ...config })).toBe(a);
    expect(chatModelFor({ ...config, apiKey: "sk-other" })).not.toBe(a);
    expect(chatModelFor({ ...config, model: "scripted-other" })).not.toBe(a);
    expect(chatModelFor({ ...config, baseURL: `${server.url}/` })).not.toBe(a);
    expect(chatModelFor(config, { includeRawResponse: true })).not.toBe(a);
  });

  it("keeps at most CHAT_MODEL_CACHE_MAX clients: an evicted config gets a fresh client, then keeps it", () => {
    const first = { ...config, model: "scripted-evict-0" };
    const a = chatModelFor(first);
    for (let i = 1; i <= CHAT_MODEL_CACHE_MAX; i++) chatModelFor({ ...config, model: `scripted-evict-${i}` });
    const b = chatModelFor(first);
    expect(b).not.toBe(a);
    expect(chatModelFor(first)).toBe(b);
    expect(chatModelFor({ ...first })).toBe(b);
  });

  it("parses tool calls and runs a tool round trip with simple message types", async () => {
    const first = await chat({ config, messages: user("find cats"), tools: [search] });
    expect(first.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_/), name: "search", args: { query: "find cats" } },
    ]);
    expect(first.finishReason).toBe("tool_calls");
    const call = first.toolCalls[0]!;
    const second = await chat({
      config,
      tools: [search],
      messages: [
        ...user("find cats"),
        { role: "assistant", content: "", toolCalls: [call] },
        { role: "tool", toolCallId: call.id, content: "3 cats" },
      ],
    });
    expect(second.content).toBe("Found: 3 cats");
    const sent = server.requests()[1]?.body as {
      messages: { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[];
    };
    expect(sent.messages[1]?.tool_calls?.[0]?.id).toBe(call.id);
    expect(sent.messages[2]).toMatchObject({ role: "tool", tool_call_id: call.id });
  });

  it.each([
    ["malformed", "invalid_json", "search"],
    ["truncated", "truncated", "search"],
    ["unknown", "unknown_tool", "no_such_tool"],
    ["empty", "empty_args", "search"],
    ["wrongtype", "schema_invalid", "search"],
  ])(
    "reports %s tool arguments as a typed ToolCallError (%s), never as a runnable call",
    async (input, reason, name) => {
      const r = await chat({ config, messages: user(input), tools: [search] });
      expect(r.toolCalls).toEqual([]);
      expect(r.invalidToolCalls).toHaveLength(1);
      const e = r.invalidToolCalls[0]!;
      expect(e).toBeInstanceOf(ToolCallError);
      expect(e).toMatchObject({ reason, toolName: name, toolCallId: expect.stringMatching(/^call_/) });
      if (input === "truncated") expect(r.finishReason).toBe("length");
    },
  );

  it("accepts empty arguments for a tool without required parameters", async () => {
    const r = await chat({
      config,
      messages: user("empty"),
      tools: [{ name: "now", schema: { type: "object", properties: {} } }],
    });
    expect(r.toolCalls).toEqual([{ id: expect.any(String), name: "now", args: {} }]);
  });

  it("surfaces refusals", async () => {
    const r = await chat({ config, messages: user("refuse") });
    expect(r).toMatchObject({ refusal: "No.", content: "" });
  });

  it("retries retryable failures and counts attempts", async () => {
    const r = await chat({ config, messages: user("flaky"), retry: fast });
    expect(r).toMatchObject({ content: "recovered", attempts: 3 });
  });

  it("ends a stalled response with its whole-call timeout, then retries", async () => {
    const t0 = Date.now();
    const r = await chat({ config: { ...config, timeoutMs: 300 }, messages: user("stall"), retry: fast });
    expect(r).toMatchObject({ content: "second try", attempts: 2 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
  });

  it("throws a typed ProviderError for permanent failures and for aborts", async () => {
    server.load([{ rules: [{ id: "denied", fault: { kind: "http", status: 401 } }] }], "replace");
    await expect(chat({ config, messages: user("x") })).rejects.toMatchObject({
      name: "ProviderError",
      kind: "auth",
      status: 401,
    });
    const ac = new AbortController();
    ac.abort();
    const err = await chat({ config, messages: user("x"), signal: ac.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: "aborted" });
  });
});

describe("chat with streaming", () => {
  it("passes text deltas and reassembles content, tool calls, refusal and usage", async () => {
    const deltas: string[] = [];
    const r = await chat({ config, messages: user("long"), onDelta: (t) => deltas.push(t) });
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join("")).toBe("a streamed answer that is long enough to need several chunks");
    expect(r).toMatchObject({
      content: deltas.join(""),
      finishReason: "stop",
      usage: { promptTokens: expect.any(Number), completionTokens: Math.ceil(deltas.join("").length / 4) },
    });
    expect(r.usage.estimated).toBeUndefined();
    const tools = await chat({ config, messages: user("find dogs"), tools: [search], onDelta: () => undefined });
    expect(tools.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_/), name: "search", args: { query: "find dogs" } },
    ]);
    const trunc = await chat({ config, messages: user("truncated"), tools: [search], onDelta: () => undefined });
    expect(trunc.invalidToolCalls[0]).toMatchObject({ reason: "truncated" });
    const refused = await chat({ config, messages: user("refuse"), onDelta: () => undefined });
    expect(refused.refusal).toBe("No.");
  });

  it("a streamed answer is never cut off while its chunks keep coming, however long it takes in all", async () => {
    const t0 = Date.now();
    const deltas: string[] = [];
    const r = await chat({
      config: { ...config, timeoutMs: 300 },
      messages: user("write slowly"),
      onDelta: (t) => deltas.push(t),
      retry: fast,
    });
    expect(Date.now() - t0).toBeGreaterThan(600);
    expect(r).toMatchObject({ content: "a local model writing its long answer piece by piece", attempts: 1 });
    expect(deltas.join("")).toBe(r.content);
  });

  it("a stream that goes quiet for longer than its timeout ends as a timeout", async () => {
    const err = await chat({
      config: { ...config, timeoutMs: 300 },
      messages: user("gaps"),
      onDelta: () => undefined,
      retry: { ...fast, maxAttempts: 1 },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: "timeout", message: "No chunk of the answer for 300 ms." });
  });

  it("retries a stream reset mid-way and tells onDelta which attempt a delta belongs to", async () => {
    const seen: [string, number][] = [];
    const r = await chat({
      config,
      messages: user("cut"),
      onDelta: (t, attempt) => seen.push([t, attempt]),
      retry: fast,
    });
    expect(r).toMatchObject({ content: "one two three four five six seven", attempts: 2 });
    expect(
      seen
        .filter(([, a]) => a === 1)
        .map(([t]) => t)
        .join(""),
    ).toBe("one two three ");
    expect(
      seen
        .filter(([, a]) => a === 2)
        .map(([t]) => t)
        .join(""),
    ).toBe(r.content);
  });
});

describe("model configs", () => {
  it("labels scripted models and builds the local scripted config", () => {
    expect(modelLabel({ model: "scripted-demo" })).toBe("Scripted demo model");
    expect(modelLabel({ model: "Scripted-router" })).toBe("Scripted demo model");
    expect(modelLabel({ model: "gpt-4o-mini" })).toBe("gpt-4o-mini");
    expect(scriptedModelConfig(4321)).toEqual({
      baseURL: "http://127.0.0.1:4321/v1",
      apiKey: "scripted",
      model: "scripted-demo",
    });
  });

  it("picks the default model from OPENAI_* or falls back to the scripted server", () => {
    expect(defaultModelConfig({ WEFT_SCRIPTED_MODEL_PORT: "4011", OPENAI_BASE_URL: "" })).toEqual(
      scriptedModelConfig(4011),
    );
    expect(defaultModelConfig({ OPENAI_API_KEY: "sk-x" })).toEqual({
      baseURL: "https://api.openai.com/v1",
      apiKey: "sk-x",
      model: "gpt-4o-mini",
    });
    expect(defaultModelConfig({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", OPENAI_MODEL: "llama3.2" })).toEqual({
      baseURL: "http://127.0.0.1:11434/v1",
      model: "llama3.2",
    });
    expect(() => defaultModelConfig({ OPENAI_BASE_URL: "not a url" })).toThrow();
  });
});
