import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FIXTURE_DIR, FixtureError, loadFixtureDir, loadFixtureFile, parseFixture } from "./fixture";
import { matches } from "./rules";
import { requestFacts, type ChatRequest } from "./request";
import { startScriptedServer, type ScriptedServer } from "./server";

const facts = (req: Partial<ChatRequest>) =>
  requestFacts({ model: "scripted-demo", messages: [{ role: "user", content: "hi" }], ...req } as ChatRequest);

describe("fixture validation", () => {
  it("names the file and the bad path", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "weft-fx-"));
    const file = path.join(dir, "broken.json");
    writeFileSync(
      file,
      JSON.stringify({
        rules: [
          { id: "ok", reply: { text: "x" } },
          { id: "bad", reply: { toolCalls: [{ args: {} }] } },
        ],
      }),
    );
    const err = (() => {
      try {
        loadFixtureFile(file);
      } catch (e) {
        return e as FixtureError;
      }
    })();
    expect(err).toBeInstanceOf(FixtureError);
    expect(err?.message).toContain(file);
    expect(err?.issues).toEqual([expect.stringContaining("rules.1.reply.toolCalls.0.name")]);
  });

  it("reports JSON syntax errors, duplicate ids, rules without replies and unknown fields", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "weft-fx-"));
    writeFileSync(path.join(dir, "a.json"), "{ not json");
    expect(() => loadFixtureDir(dir)).toThrow(/a\.json/);
    expect(() =>
      parseFixture("dup", {
        rules: [
          { id: "x", reply: { text: "1" } },
          { id: "x", reply: { text: "2" } },
        ],
      }),
    ).toThrow(/duplicate rule id "x"/);
    expect(() => parseFixture("none", { rules: [{ id: "x" }] })).toThrow(/exactly one of reply or sequence/);
    expect(() => parseFixture("typo", { rules: [{ id: "x", reply: { txt: "1" } }] })).toThrow(/rules\.0\.reply/);
  });

  it("loads the shipped demo fixtures", () => {
    const sets = loadFixtureDir(DEFAULT_FIXTURE_DIR);
    expect(sets.map((s) => path.basename(s.source))).toContain("demo.json");
  });
});

describe("matching", () => {
  it("checks every field that is set", () => {
    const f = facts({
      model: "scripted-x",
      messages: [
        { role: "system", content: "You are [[router]]" },
        { role: "user", content: "Route THIS ticket" },
      ],
      tools: [
        { type: "function", function: { name: "a" } },
        { type: "function", function: { name: "b" } },
      ],
      response_format: { type: "json_schema", json_schema: { name: "route" } },
    });
    expect(
      matches(
        { lastUser: "this ticket", system: "[[router]]", tools: ["b"], schema: "route", model: { regex: "^scripted" } },
        f,
      ),
    ).toBe(true);
    expect(
      matches(
        {
          lastUser: { regex: "^route this", flags: "i" },
          hasTools: true,
          responseFormat: "json_schema",
          lastRole: "user",
        },
        f,
      ),
    ).toBe(true);
    expect(matches({ structured: true }, f)).toBe(true);
    expect(matches({ structured: false }, f)).toBe(false);
    const free = facts({ tools: [{ type: "function", function: { name: "a" } }] });
    const forced = facts({
      tools: [{ type: "function", function: { name: "a" } }],
      tool_choice: { type: "function", function: { name: "a" } },
    });
    expect([matches({ structured: false, hasTools: true }, free), matches({ structured: false }, forced)]).toEqual([
      true,
      false,
    ]);
    expect(matches({ system: ["[[router]]", "[[other]]"] }, f)).toBe(false);
    expect(matches({ tools: ["c"] }, f)).toBe(false);
    expect(matches({ model: "scripted-demo" }, f)).toBe(false);
    expect(matches({}, f)).toBe(true);
  });
});

describe("control endpoints", () => {
  let server: ScriptedServer;
  const ask = async (content: string) => {
    const res = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content }] }),
    });
    return {
      rule: res.headers.get("x-scripted-rule"),
      body: (await res.json()) as { choices: { message: { content: string } }[] },
    };
  };
  const base = `http://127.0.0.1`;
  beforeAll(async () => {
    server = await startScriptedServer({
      fixtures: [
        {
          rules: [
            { id: "low", priority: -1, reply: { text: "low" } },
            { id: "x", match: { lastUser: "x" }, reply: { text: "x1" } },
          ],
        },
      ],
    });
  });
  afterAll(() => server.close());

  it("adds rules (upsert by id, priority order), replaces, logs and resets", async () => {
    const post = (p: string, body?: unknown) =>
      fetch(`${base}:${server.port}${p}`, {
        method: "POST",
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await ask("x")).body.choices[0]?.message.content).toBe("x1");
    expect(
      (
        await post("/_scripted/fixtures", {
          rules: [
            { id: "x", match: { lastUser: "x" }, reply: { text: "x2" } },
            { id: "hi", priority: 5, reply: { text: "top" } },
          ],
        })
      ).status,
    ).toBe(200);
    expect(await ask("x")).toMatchObject({ rule: "hi" });
    expect(server.rules().map((r) => r.id)).toEqual(["hi", "x", "low"]);
    const bad = await post("/_scripted/fixtures", { rules: [{ id: "y", reply: {} }] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("POST /_scripted/fixtures");
    await post("/_scripted/fixtures", { mode: "replace", rules: [] });
    expect(await ask("x")).toMatchObject({
      rule: "fallback",
      body: { choices: [{ message: { content: "Scripted reply: x" } }] },
    });
    const log = (await (await fetch(`${base}:${server.port}/_scripted/requests`)).json()) as {
      requests: { rule: string }[];
    };
    expect(log.requests.map((r) => r.rule)).toEqual(["x", "hi", "fallback"]);
    expect((await post("/_scripted/reset")).status).toBe(200);
    expect(server.requests()).toEqual([]);
    expect((await ask("x")).rule).toBe("x");
  });
});

describe("request log", () => {
  it("keeps the last maxLog requests", async () => {
    const server = await startScriptedServer({ maxLog: 2 });
    try {
      for (const content of ["a", "b", "c"]) {
        await fetch(`${server.url}/chat/completions`, {
          method: "POST",
          body: JSON.stringify({ model: "m", messages: [{ role: "user", content }] }),
        }).then((r) => r.json());
      }
      expect(server.requests().map((r) => [r.seq, r.lastUser])).toEqual([
        [2, "b"],
        [3, "c"],
      ]);
    } finally {
      await server.close();
    }
  });
});
