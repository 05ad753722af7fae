import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FIXTURE_DIR, loadFixtureDir } from "@/lib/llm/scripted/fixture";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { validate } from "@/lib/workflow/validate";
import type { DesignerEvent } from "./events";
import { DESIGN_EXAMPLES } from "./examples";
import { CORPUS_CONTEXT } from "./fixtures/corpus";
import { llmDesignerModel } from "./llm";
import { design } from "./pipeline";

/**
 * The offline demo's designer: the scripted model server with the fixtures `npm run up`, Docker and
 * e2e serve (lib/llm/scripted/fixtures, nothing else), over HTTP, through the real pipeline. The
 * start screen's examples are designed exactly; a request it has no transcript for gets the nearest
 * corpus design (a valid workflow), not four unparseable answers.
 */
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ fixtures: loadFixtureDir(DEFAULT_FIXTURE_DIR) });
});
afterAll(() => server.close());

async function designed(message: string) {
  const model = llmDesignerModel({
    baseURL: server.url,
    apiKey: "scripted",
    model: "scripted-demo",
    timeoutMs: 10_000,
  });
  const events: DesignerEvent[] = [];
  for await (const e of design({ message }, { model, context: CORPUS_CONTEXT })) events.push(e);
  const last = events.at(-1)!;
  expect(last.type, JSON.stringify(last)).toBe("done");
  if (last.type !== "done") throw new Error("not done");
  const errors = validate(last.result.workflow, { tools: CORPUS_CONTEXT.tools.map((t) => t.name) }).filter(
    (i) => i.severity === "error" && i.code !== "tool_placeholder",
  );
  expect(errors).toEqual([]);
  return { result: last.result, requests: server.requests().slice(-last.result.usage.calls) };
}

describe("the offline demo designs", () => {
  it.each(DESIGN_EXAMPLES.map((e) => [e]))(
    "the start screen's example %s, from its own transcript",
    async (example) => {
      const { requests } = await designed(example);
      expect(requests.every((r) => r.matched && r.rule?.startsWith("designer."))).toBe(true);
    },
  );

  it("a request it has no transcript for: the nearest corpus design, a valid workflow", async () => {
    const { result, requests } = await designed(
      "Handle support tickets: classify each one and send billing questions to a billing agent and technical ones to a tech agent",
    );
    expect(requests[0]).toMatchObject({ matched: false });
    expect(requests[0]!.nearest).toBeGreaterThan(0);
    expect(requests[0]!.rule).toMatch(/^designer\./);
    expect(result.workflow.nodes.some((n) => n.type === "router")).toBe(true);
  });
});
