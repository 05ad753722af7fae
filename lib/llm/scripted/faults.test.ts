import { HumanMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer, type ScriptedServer } from "./server";

// Each injected failure must reach a LangChain ChatOpenAI client exactly as a real provider's would.
let server: ScriptedServer;
const text = "one two three four five six seven eight nine ten eleven twelve";
const model = (extra: Partial<ConstructorParameters<typeof ChatOpenAI>[0]> = {}) =>
  new ChatOpenAI({
    model: "scripted-demo",
    apiKey: "sk-test",
    maxRetries: 0,
    configuration: { baseURL: server.url },
    ...extra,
  });
const lookup = {
  type: "function" as const,
  function: {
    name: "lookup",
    description: "Look up",
    parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  },
};
const withTool = () => model().bindTools([lookup]);

async function caught(p: Promise<unknown>): Promise<Record<string, unknown> & Error> {
  try {
    await p;
  } catch (e) {
    return e as Record<string, unknown> & Error;
  }
  throw new Error("expected a rejection");
}

beforeAll(async () => {
  server = await startScriptedServer({
    fixtures: [
      {
        rules: [
          {
            id: "f.429",
            match: { lastUser: "rate" },
            fault: { kind: "http", status: 429, retryAfter: 1 },
            times: 1,
            reply: { text: "after the limit" },
          },
          { id: "f.500", match: { lastUser: "boom" }, fault: { kind: "http", status: 500 } },
          { id: "f.503", match: { lastUser: "overloaded" }, fault: { kind: "http", status: 503, retryAfter: 2 } },
          {
            id: "f.400",
            match: { lastUser: "bad" },
            fault: { kind: "http", status: 400, message: "Invalid 'messages': too many." },
          },
          { id: "f.401", match: { lastUser: "key" }, fault: { kind: "http", status: 401 } },
          { id: "f.malformed", match: { lastUser: "malformed" }, fault: { kind: "malformed_args" } },
          {
            id: "f.truncated",
            match: { lastUser: "truncated" },
            fault: { kind: "truncated_args" },
            reply: { toolCalls: [{ name: "lookup", args: { q: "a fairly long query string" } }] },
          },
          { id: "f.unknown", match: { lastUser: "unknown" }, fault: { kind: "unknown_tool", name: "launch_rockets" } },
          { id: "f.empty", match: { lastUser: "empty" }, fault: { kind: "empty_args" } },
          { id: "f.refusal", match: { lastUser: "refuse" }, fault: { kind: "refusal" } },
          { id: "f.delay", match: { lastUser: "slow" }, fault: { kind: "delay", ms: 300 }, reply: { text: "late" } },
          { id: "f.reset", match: { lastUser: "reset" }, fault: { kind: "reset", afterChunks: 2 }, reply: { text } },
          { id: "f.stall", match: { lastUser: "stall" }, fault: { kind: "stall", afterChunks: 2 }, reply: { text } },
          {
            id: "f.seq",
            match: { lastUser: "review" },
            sequence: [{ text: "revise" }, { text: "revise" }, { text: "approved" }],
          },
          { id: "f.cycle", match: { lastUser: "toggle" }, sequence: [{ text: "on" }, { text: "off" }], then: "cycle" },
          {
            id: "f.seqfault",
            match: { lastUser: "flaky" },
            sequence: [{ fault: { kind: "http", status: 500 } }, { text: "fine" }],
          },
        ],
      },
    ],
  });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("HTTP failures", () => {
  it("429 carries status, retry-after header and OpenAI's error shape, then the rule answers", async () => {
    const e = await caught(model().invoke("rate me"));
    expect(e.status).toBe(429);
    expect((e.headers as Headers).get("retry-after")).toBe("1");
    expect(e.code).toBe("rate_limit_exceeded");
    expect(e.type).toBe("requests");
    expect((await model().invoke("rate me")).content).toBe("after the limit");
    expect(server.requests().map((r) => [r.outcome, r.status])).toEqual([
      ["fault:http", 429],
      ["reply", 200],
    ]);
  });

  it.each([
    ["boom", 500, "server_error", null],
    ["overloaded", 503, "server_error", "2"],
    ["bad", 400, "invalid_request_error", null],
    ["key", 401, "invalid_request_error", null],
  ])("%s → HTTP %i", async (input, status, type, retryAfter) => {
    const e = await caught(model().invoke(input));
    expect(e.status).toBe(status);
    expect(e.type).toBe(type);
    expect((e.headers as Headers).get("retry-after")).toBe(retryAfter);
    expect((e.error as { message: string }).message.length).toBeGreaterThan(5);
  });

  it("answers a raw 400 body the way OpenAI does", async () => {
    const res = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "bad" }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { message: "Invalid 'messages': too many.", type: "invalid_request_error", param: null, code: null },
    });
  });
});

describe("broken tool calls", () => {
  it("malformed JSON arguments become an invalid tool call", async () => {
    const msg = await withTool().invoke("malformed please");
    expect(msg.tool_calls).toEqual([]);
    expect(msg.invalid_tool_calls?.[0]).toMatchObject({ name: "lookup" });
    expect(() => JSON.parse(String(msg.invalid_tool_calls?.[0]?.args))).toThrow();
  });

  it("truncated arguments end with finish_reason length (invoke and stream)", async () => {
    const msg = await withTool().invoke("truncated please");
    expect(msg.response_metadata.finish_reason).toBe("length");
    const full = JSON.stringify({ q: "a fairly long query string" });
    expect(String(msg.invalid_tool_calls?.[0]?.args)).toBe(full.slice(0, Math.ceil(full.length / 2)));
    let finish: unknown;
    for await (const c of await withTool().stream("truncated please")) finish ??= c.response_metadata.finish_reason;
    expect(finish).toBe("length");
  });

  it("unknown tool names and empty arguments arrive verbatim", async () => {
    const unknown = await withTool().invoke("unknown tool");
    expect(unknown.tool_calls?.[0]).toMatchObject({ name: "launch_rockets", args: {} });
    const empty = await withTool().invoke("empty args");
    const raw = (empty.additional_kwargs.tool_calls ?? [])[0];
    expect(raw?.function.arguments).toBe("");
    expect(raw?.function.name).toBe("lookup");
  });

  it("refusal is sent in the message's refusal field with no content", async () => {
    const res = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "refuse" }] }),
    });
    const body = (await res.json()) as { choices: { message: { content: unknown; refusal: string } }[] };
    expect(body.choices[0]?.message).toMatchObject({ content: null, refusal: expect.stringContaining("can't help") });
  });
});

describe("timing and connection failures", () => {
  it("delays the answer", async () => {
    const t0 = Date.now();
    expect((await model().invoke("slow")).content).toBe("late");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it("resets the connection mid-stream after some chunks", async () => {
    const got: string[] = [];
    const e = await caught(
      (async () => {
        for await (const c of await model().stream([new HumanMessage("reset")])) got.push(String(c.content));
      })(),
    );
    expect(got.join("")).toBe("one two three ");
    expect(String(e.message)).toMatch(/terminated|ECONNRESET|socket/i);
    expect(await caught(model().invoke("reset"))).toMatchObject({ message: "Connection error." });
  });

  it("stalls a stream until the client times out, and a non-streamed call gets no answer", async () => {
    const got: string[] = [];
    const e = await caught(
      (async () => {
        for await (const c of await model().stream("stall", { signal: AbortSignal.timeout(400) }))
          got.push(String(c.content));
      })(),
    );
    expect(got.join("")).toBe("one two three ");
    expect(e.name).toMatch(/TimeoutError|AbortError/);
    expect(await caught(model({ timeout: 300 }).invoke("stall"))).toMatchObject({ name: "TimeoutError" });
  });
});

describe("sequences", () => {
  it("advance per call and repeat the last reply", async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await model().invoke("please review")).content);
    expect(answers).toEqual(["revise", "revise", "approved", "approved"]);
  });

  it("cycle when asked, reset restarts them, and faults can be sequence steps", async () => {
    const a = [];
    for (let i = 0; i < 3; i++) a.push((await model().invoke("toggle")).content);
    expect(a).toEqual(["on", "off", "on"]);
    server.reset();
    expect((await model().invoke("toggle")).content).toBe("on");
    expect((await caught(model().invoke("flaky"))).status).toBe(500);
    expect((await model().invoke("flaky")).content).toBe("fine");
  });
});
