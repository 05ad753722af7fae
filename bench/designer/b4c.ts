import { evaluateDesigner, summariseEvaluation, type EvaluationSummary } from "@/lib/designer/evaluate";
import { corpus, scriptedFixture } from "@/lib/designer/fixtures/corpus";
import { llmDesignerModel } from "@/lib/designer/llm";
import type { StructuredPath } from "@/lib/llm/json-call";
import { pathKey, processPathMemory } from "@/lib/llm/path-memory";
import type { PersonalityName } from "@/lib/llm/scripted/personality";
import { startScriptedServer } from "@/lib/llm/scripted/server";

/**
 * B4c — provider capability paths: the whole corpus over real HTTP against the scripted server
 * answering like a provider that supports only one path (lib/llm/scripted/personality.ts), once with
 * that path pinned and once found automatically (starting from nothing remembered). Every run must
 * end valid on every request.
 */

/** The provider each path is run against (the one that supports only it, or all of them for strict json_schema). */
export const PATH_PROVIDERS: [StructuredPath, PersonalityName][] = [
  ["json_schema", "openai"],
  ["tool", "tools-only"],
  ["json_object", "json-mode"],
  ["text", "text-only"],
];

export type B4cRun = {
  path: StructuredPath;
  provider: PersonalityName;
  mode: "pinned" | "auto";
  remembered?: string;
  summary: EvaluationSummary;
  invalid: string[];
};

/** Runs B4c: each path pinned on its provider, and found automatically on it. */
export async function runB4c(): Promise<B4cRun[]> {
  const server = await startScriptedServer({ fixtures: [scriptedFixture(corpus, "designer")] });
  const runs: B4cRun[] = [];
  try {
    for (const [path, provider] of PATH_PROVIDERS) {
      for (const mode of ["pinned", "auto"] as const) {
        server.reset();
        const memory = processPathMemory();
        const config = {
          baseURL: server.url.replace(/\/v1$/, `/p/${provider}/v1`),
          apiKey: "scripted",
          model: "scripted-demo",
          timeoutMs: 30_000,
        };
        const model = llmDesignerModel(config, { path: mode === "pinned" ? path : "auto", memory });
        const rows = [];
        for await (const row of evaluateDesigner(model, corpus)) rows.push(row);
        const remembered = mode === "auto" ? await memory.get(pathKey(config)) : undefined;
        runs.push({
          path,
          provider,
          mode,
          ...(remembered ? { remembered } : {}),
          summary: summariseEvaluation(rows),
          invalid: rows.filter((r) => !r.valid).map((r) => r.id),
        });
      }
    }
  } finally {
    await server.close();
  }
  return runs;
}
