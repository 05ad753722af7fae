import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FIXTURE_DIR, loadFixtureDir } from "@/lib/llm/scripted/fixture";
import { scriptedModelConfig } from "@/lib/llm/models";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { createTestUser } from "@/test/fixtures";
import { useTestDatabase } from "@/test/db";
import { createTool, toolDraftSchema } from "./create";
import { runToolTests } from "./tests";

/**
 * Tool creation in the offline demo: the scripted model with exactly the fixtures `npm run up` and
 * Docker serve (lib/llm/scripted/fixtures). Every tool it can write passes its own tests in the
 * sandbox; a request in other words gets the closest one (the rules' `example`), and one it shares
 * no word with fails with the reason rather than writing something unrelated.
 */
useTestDatabase();

const sets = loadFixtureDir(DEFAULT_FIXTURE_DIR);
const toolRules = sets.flatMap((s) => s.fixture.rules).filter((r) => r.match.schema === "write_tool");
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ fixtures: sets });
});
afterAll(() => server.close());
const config = () => ({ ...scriptedModelConfig(), baseURL: server.url });

describe("the offline demo writes tools", () => {
  it("every scripted tool's last draft is a valid draft that passes its own tests in the sandbox", async () => {
    expect(toolRules.length).toBeGreaterThanOrEqual(5);
    const owner = await createTestUser();
    for (const rule of toolRules) {
      const last = rule.reply ?? rule.sequence!.at(-1)!;
      const draft = toolDraftSchema.parse(last.json);
      const results = await runToolTests(owner.id, draft.code, draft.tests);
      expect(
        results.filter((r) => !r.passed),
        `${rule.id}: ${JSON.stringify(results)}`,
      ).toEqual([]);
      expect(rule.example, `${rule.id} has an example`).toBeTruthy();
    }
  }, 60_000);

  it("a request in its own words gets the closest scripted tool, fixed in a second round when its first draft fails", async () => {
    const owner = await createTestUser();
    // the server logs every test's requests: only this test's count here
    const earlier = server.requests().length;
    const slug = await createTool({
      workspaceId: owner.id,
      request: "Make URL-friendly slugs out of blog post titles",
      config: config(),
    });
    expect(slug).toMatchObject({ status: "ready", rounds: 1, draft: { name: "slugify" } });
    const emails = await createTool({
      workspaceId: owner.id,
      request: "Pull every email address out of a block of text",
      config: config(),
    });
    expect(emails).toMatchObject({ status: "ready", rounds: 2, draft: { name: "extract_emails" } });
    const logged = server
      .requests()
      .slice(earlier)
      .filter((r) => r.schema === "write_tool");
    expect(logged.map((r) => [r.rule, r.matched])).toEqual([
      ["demo-tools.slugify", false],
      ["demo-tools.extract-emails", false],
      ["demo-tools.extract-emails", false],
    ]);
  }, 60_000);

  it("a request sharing no word with any scripted tool fails with the reason", async () => {
    const owner = await createTestUser();
    const outcome = await createTool({
      workspaceId: owner.id,
      request: "Query the stock price of ACME on NASDAQ",
      config: config(),
    });
    expect(outcome).toMatchObject({ status: "failed", rounds: 1 });
    expect(outcome.status === "failed" && outcome.error).toContain("did not return a tool");
  }, 60_000);
});
