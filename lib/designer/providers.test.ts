import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathKey, processPathMemory } from "@/lib/llm/path-memory";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { CORPUS_CONTEXT, baseWorkflow, corpus, scriptedFixture } from "./fixtures/corpus";
import { llmDesignerModel } from "./llm";
import { design } from "./pipeline";
import { matchStructure, structureOf } from "./structure";

/**
 * The designer on each provider capability path, over real HTTP, against the scripted server
 * answering like a provider that supports only that path (lib/llm/scripted/personality.ts): the
 * corpus requests end valid, and the path the provider answered on is found and remembered.
 * (B4c runs the whole corpus on every path: `npm run bench -- designer`.)
 */

const SAMPLE = [
  "n01-article",
  "n06-four-solvers-badjson",
  "n09-support-one-branch",
  "n17-triage-unknown-kind",
  "n20-reviewed-bad-template",
  "e01-fact-checker",
  "e04-shipping-route-dangling",
  "e10-second-traceback-dup-branch",
];
const PATHS = { openai: "json_schema", "tools-only": "tool", "json-mode": "json_object", "text-only": "text" } as const;

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ fixtures: [scriptedFixture(corpus, "designer")] });
});
afterAll(() => server.close());

describe("the designer on every structured-output path", () => {
  it.each(Object.entries(PATHS))(
    "%s: corpus requests end valid; the provider's path (%s) is remembered",
    async (personality, path) => {
      server.reset();
      const memory = processPathMemory();
      const config = {
        baseURL: server.url.replace(/\/v1$/, `/p/${personality}/v1`),
        apiKey: "k",
        model: "scripted-demo",
        timeoutMs: 10_000,
      };
      const model = llmDesignerModel(config, { memory });
      for (const entry of corpus.filter((e) => SAMPLE.includes(e.id))) {
        const request = { message: entry.request, ...(entry.base ? { workflow: baseWorkflow(entry.base) } : {}) };
        let last;
        for await (const e of design(request, { model, context: CORPUS_CONTEXT })) last = e;
        expect(last?.type, `${personality} ${entry.id}: ${JSON.stringify(last)}`.slice(0, 400)).toBe("done");
        if (last?.type === "done")
          expect(matchStructure(entry.golden!, structureOf(last.result.workflow)).match).toBe(true);
      }
      expect(await memory.get(pathKey(config))).toBe(path);
      const answered = server
        .requests()
        .filter((r) => r.status === 200)
        .at(-1)!.body as { response_format?: { type: string }; tool_choice?: unknown };
      const last = answered.tool_choice ? "tool" : (answered.response_format?.type ?? "text");
      expect(last).toBe(path);
    },
  );
});
