import { type AIMessageChunk, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { cosine } from "./embeddings";
import { DEFAULT_FIXTURE_DIR, loadFixtureDir } from "./fixture";
import { startScriptedServer, type ScriptedServer } from "./server";

let server: ScriptedServer;
const model = () =>
  new ChatOpenAI({ model: "scripted-demo", apiKey: "sk-test", maxRetries: 0, configuration: { baseURL: server.url } });

beforeAll(async () => {
  server = await startScriptedServer({
    fixtures: [
      ...loadFixtureDir(DEFAULT_FIXTURE_DIR),
      {
        rules: [
          {
            id: "t.plain",
            match: { lastUser: "capital of France" },
            reply: { text: "The capital of France is Paris." },
          },
          {
            id: "t.weather",
            match: { tools: ["get_weather"] },
            reply: { toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] },
          },
          { id: "t.person", match: { schema: "person" }, reply: { json: { name: "Ada {{lastUser}}", age: 36 } } },
          {
            id: "t.echo",
            match: { lastUser: { regex: "^echo:" } },
            reply: { text: "You said {{lastUser}} to {{model}}" },
          },
        ],
      },
    ],
  });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("scripted server with LangChain ChatOpenAI", () => {
  it("answers .invoke with text, a unique id and usage", async () => {
    const a = await model().invoke([new HumanMessage("What is the capital of France?")]);
    const b = await model().invoke([new HumanMessage("What is the capital of France?")]);
    expect(a.content).toBe("The capital of France is Paris.");
    expect(a.id).toMatch(/^chatcmpl-/);
    expect(a.id).not.toBe(b.id);
    expect(a.usage_metadata?.input_tokens).toBeGreaterThan(0);
    expect(a.usage_metadata?.output_tokens).toBe(Math.ceil("The capital of France is Paris.".length / 4));
    expect(server.requests().map((r) => r.rule)).toEqual(["t.plain", "t.plain"]);
  });

  it("streams chunks that reassemble to the same text, with usage last", async () => {
    const stream = await new ChatOpenAI({
      model: "scripted-demo",
      apiKey: "k",
      maxRetries: 0,
      streamUsage: true,
      configuration: { baseURL: server.url },
    }).stream([new HumanMessage("echo: a longer sentence so that several chunks are needed here")]);
    const chunks: AIMessageChunk[] = [];
    for await (const c of stream) chunks.push(c);
    const full = chunks.reduce((acc, c) => acc.concat(c));
    expect(chunks.length).toBeGreaterThan(4);
    expect(full.content).toBe(
      "You said echo: a longer sentence so that several chunks are needed here to scripted-demo",
    );
    expect(full.usage_metadata?.output_tokens).toBeGreaterThan(0);
    expect(full.response_metadata.finish_reason).toBe("stop");
  });

  it("returns tool calls through bindTools, invoke and stream", async () => {
    const getWeather = tool(async ({ city }) => `sunny in ${city}`, {
      name: "get_weather",
      description: "Weather for a city",
      schema: z.object({ city: z.string() }),
    });
    const bound = model().bindTools([getWeather]);
    const msg = await bound.invoke("Weather in Paris?");
    expect(msg.tool_calls).toEqual([expect.objectContaining({ name: "get_weather", args: { city: "Paris" } })]);
    expect(msg.tool_calls?.[0]?.id).toMatch(/^call_/);
    let full: AIMessageChunk | undefined;
    for await (const c of await bound.stream("Weather in Paris?")) full = full ? full.concat(c) : c;
    expect(full?.tool_calls).toEqual([expect.objectContaining({ name: "get_weather", args: { city: "Paris" } })]);
    expect(full?.tool_calls?.[0]?.id).not.toBe(msg.tool_calls?.[0]?.id);
  });

  it("serves withStructuredOutput by json_schema and by function calling", async () => {
    const person = z.object({ name: z.string(), age: z.number() });
    const viaSchema = await model().withStructuredOutput(person, { name: "person" }).invoke("Lovelace");
    const viaTool = await model()
      .withStructuredOutput(person, { name: "person", method: "functionCalling" })
      .invoke("Byron");
    expect(viaSchema).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(viaTool).toEqual({ name: "Ada Byron", age: 36 });
    const [a, b] = server.requests();
    expect(a?.body).toMatchObject({ response_format: { type: "json_schema", json_schema: { name: "person" } } });
    expect(b?.body).toMatchObject({ tool_choice: { type: "function", function: { name: "person" } } });
  });

  it("uses the demo fixtures: system markers, templating and the tool loop", async () => {
    const evalMsg = await model().invoke([
      new SystemMessage("You review drafts. [[evaluator]]"),
      new HumanMessage("draft"),
    ]);
    expect(JSON.parse(String(evalMsg.content))).toMatchObject({ verdict: "revise" });
    const writer = await model().invoke([new HumanMessage("bees in winter")]);
    expect(writer.content).toContain('"bees in winter"');
    expect(server.requests().map((r) => r.rule)).toEqual(["demo.evaluator", "demo.writer"]);
  });

  it("marks unmatched structured requests as fallback and never picks a choice", async () => {
    server.load([], "replace");
    const res = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "scripted-demo",
        messages: [{ role: "user", content: "pick a branch" }],
        tools: [
          {
            type: "function",
            function: {
              name: "choose_branch",
              parameters: { type: "object", properties: { branch: { enum: ["a", "b"] } } },
            },
          },
        ],
        tool_choice: { type: "function", function: { name: "choose_branch" } },
      }),
    });
    const body = (await res.json()) as { choices: { message: { content: string; tool_calls?: unknown[] } }[] };
    expect(res.headers.get("x-scripted-rule")).toBe("fallback");
    expect(body.choices[0]?.message.tool_calls).toBeUndefined();
    expect(body.choices[0]?.message.content).toContain("No scripted fixture matched");
    expect(server.requests()[0]).toMatchObject({ rule: "fallback", matched: false, schema: "choose_branch" });
  });

  it("lists models and serves deterministic embeddings (float and base64) through OpenAIEmbeddings", async () => {
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toContain("scripted-demo");
    const emb = new OpenAIEmbeddings({
      model: "scripted-embed",
      apiKey: "k",
      maxRetries: 0,
      configuration: { baseURL: server.url },
    });
    const [a, b, c, d] = await emb.embedDocuments([
      "the cat sat on the mat",
      "the cat sat on the mat",
      "a cat on a mat",
      "quantum chromodynamics",
    ]);
    expect(a).toHaveLength(256);
    expect(a).toEqual(b);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect(cosine(a!, c!)).toBeGreaterThan(0.3);
    expect(cosine(a!, c!)).toBeGreaterThan(Math.abs(cosine(a!, d!)));
    const res = await fetch(`${server.url}/embeddings`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", input: "the cat sat on the mat", dimensions: 64, encoding_format: "float" }),
    });
    const body = (await res.json()) as { data: { embedding: number[] }[] };
    expect(body.data[0]?.embedding).toHaveLength(64);
  });
});
