import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer, type ScriptedServer } from "./server";

/**
 * Nearest example (rules.ts nearestExample): a request no rule matches is answered by the rule whose
 * `example` shares the most words with its first user message, among the rules whose match holds
 * apart from their message patterns; an exact match always wins, and a request sharing no word gets
 * the built-in fallback.
 */
let server: ScriptedServer;

const onlyIf = (request: string) => ({ regex: `^${request}$`, flags: "m" });

beforeAll(async () => {
  server = await startScriptedServer({
    fixtures: [
      {
        rules: [
          {
            id: "plan.article",
            match: { system: "PLANNER", schema: "plan", anyMessage: onlyIf("Write an article about bees") },
            example: "Write an article about bees",
            reply: { json: { plan: "article" } },
          },
          {
            id: "plan.triage",
            match: {
              system: "PLANNER",
              schema: "plan",
              anyMessage: onlyIf("Triage support tickets to billing or tech"),
            },
            example: "Triage support tickets to billing or tech",
            sequence: [{ json: { plan: "triage-1" } }, { json: { plan: "triage-2" } }],
          },
          {
            id: "other.schema",
            match: { system: "PLANNER", schema: "other" },
            example: "customer support tickets billing refunds",
            reply: { json: { plan: "wrong schema" } },
          },
        ],
      },
    ],
  });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function ask(messages: { role: string; content: string }[], schema = "plan") {
  const res = await fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "scripted-demo",
      messages: [{ role: "system", content: "You are the PLANNER." }, ...messages],
      response_format: { type: "json_schema", json_schema: { name: schema, schema: {} } },
    }),
  });
  const body = (await res.json()) as { choices: { message: { content: string } }[] };
  return {
    rule: res.headers.get("x-scripted-rule"),
    nearest: res.headers.get("x-scripted-nearest"),
    content: body.choices[0]!.message.content,
  };
}

describe("nearest example", () => {
  it("an exact match wins and is not marked nearest", async () => {
    const a = await ask([{ role: "user", content: "Write an article about bees" }]);
    expect(a).toMatchObject({ rule: "plan.article", nearest: null });
    expect(JSON.parse(a.content)).toEqual({ plan: "article" });
    expect(server.requests()[0]).toMatchObject({ rule: "plan.article", matched: true });
    expect(server.requests()[0]!.nearest).toBeUndefined();
  });

  it("an unscripted request gets the rule whose example shares the most words, among rules whose other fields hold", async () => {
    const a = await ask([
      {
        role: "user",
        content: "Route customer support tickets: billing questions to finance, tech issues to engineering",
      },
    ]);
    // "other.schema" shares more words but its schema differs, so it does not compete
    expect(a.rule).toBe("plan.triage");
    expect(Number(a.nearest)).toBeGreaterThan(0);
    expect(JSON.parse(a.content)).toEqual({ plan: "triage-1" });
    const logged = server.requests()[0]!;
    expect(logged).toMatchObject({ rule: "plan.triage", matched: false });
    expect(logged.nearest).toBe(Number(a.nearest));
  });

  it("follow-up turns are judged by the first user message and go on through the chosen rule's sequence", async () => {
    const first = [{ role: "user", content: "Sort incoming tickets for billing and tech teams" }];
    expect((await ask(first)).rule).toBe("plan.triage");
    const repair = await ask([
      ...first,
      { role: "assistant", content: "{}" },
      { role: "user", content: "Fix this: write the article again" },
    ]);
    expect(repair.rule).toBe("plan.triage");
    expect(JSON.parse(repair.content)).toEqual({ plan: "triage-2" });
  });

  it("a request sharing no content word with any example gets the built-in fallback", async () => {
    const a = await ask([{ role: "user", content: "Forecast rainfall in Lisbon" }]);
    expect(a).toMatchObject({ rule: "fallback", nearest: null });
    expect(a.content).toContain("No scripted fixture matched");
  });
});
