import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixtureFile } from "@/lib/llm/scripted/fixture";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { applyOperations } from "@/lib/workflow/operations";
import { workflowSchema } from "@/lib/workflow/schema";
import { validate } from "@/lib/workflow/validate";
import type { DesignerEvent, DesignResult } from "./events";
import { CORPUS_CONTEXT, baseWorkflow, corpus, scriptedFixture, type CorpusEntry } from "./fixtures/corpus";
import { llmDesignerModel } from "./llm";
import type { DesignerModel } from "./model";
import { readFileSync } from "node:fs";
import { SCRIPTED_FILE, scriptedFileContent } from "./fixtures/export";
import { design } from "./pipeline";
import { replayModel } from "./replay";
import { matchStructure, structureOf } from "./structure";

/**
 * The corpus: every request ends in a valid workflow matching its golden structure, or in a clear
 * list of remaining issues — never a crash, never an invalid graph as a proposal — with the calls
 * it should take (fewer than its transcript where the local repairs fix what the later replies fix).
 * Run twice: through the scripted model server over real HTTP (lib/llm, the provider's structured
 * path as the product picks it), and in process with the same transcripts.
 */

async function run(entry: CorpusEntry, model: DesignerModel): Promise<DesignerEvent[]> {
  const events: DesignerEvent[] = [];
  const request = { message: entry.request, ...(entry.base ? { workflow: baseWorkflow(entry.base) } : {}) };
  for await (const event of design(request, { model, context: CORPUS_CONTEXT })) events.push(event);
  return events;
}

const registered = CORPUS_CONTEXT.tools.map((t) => t.name);

function expectValidProposal(entry: CorpusEntry, result: DesignResult) {
  const errors = validate(result.workflow, { tools: registered }).filter((i) => i.severity === "error");
  expect(errors.filter((i) => i.code !== "tool_placeholder")).toEqual([]);
  expect(errors.map((i) => i.code)).toEqual(result.pendingIssues.map((i) => i.code));
  const verdict = matchStructure(entry.golden!, structureOf(result.workflow));
  expect(verdict.why ?? "match").toBe("match");
  expect(result.toCreate.map((t) => t.name).sort()).toEqual([...(entry.toCreate ?? [])].sort());
  expect(result.merged.map((m) => m.removed)).toEqual(entry.merges ?? []);
  expect(result.workflow.nodes.every((n) => n.position)).toBe(true);
  const start = entry.base ? baseWorkflow(entry.base) : workflowSchema.parse({});
  expect(
    applyOperations(
      start,
      result.changes.flatMap((g) => g.ops),
    ),
  ).toEqual(result.workflow);
  if (entry.base) {
    const base = baseWorkflow(entry.base);
    for (const node of base.nodes) {
      const kept = result.workflow.nodes.find((n) => n.id === node.id);
      if (kept) expect(kept.position).toEqual(node.position);
    }
  }
}

function check(entry: CorpusEntry, events: DesignerEvent[]) {
  const last = events.at(-1)!;
  expect(events.filter((e) => e.type === "done" || e.type === "failed")).toHaveLength(1);
  expect(events.some((e) => e.type === "proposal" && "workflow" in e)).toBe(false);
  if (entry.golden) {
    expect(last.type, JSON.stringify(last.type === "failed" ? last.issues : null)).toBe("done");
    if (last.type !== "done") return;
    expectValidProposal(entry, last.result);
    expect(last.result.usage.calls).toBe(entry.calls ?? entry.transcript.length);
  } else {
    expect(last.type).toBe("failed");
    if (last.type !== "failed") return;
    expect(last.reason).toBe("invalid");
    expect(last.issues.length).toBeGreaterThan(0);
    expect(last.issues.every((i) => i.code && i.message)).toBe(true);
    expect(last.usage.calls).toBe(4);
  }
}

describe("designer corpus", () => {
  it("the exported scripted-model fixture file is in sync with the corpus (npx tsx lib/designer/fixtures/export.ts)", () => {
    expect(readFileSync(SCRIPTED_FILE, "utf8")).toBe(scriptedFileContent());
    expect(loadFixtureFile(SCRIPTED_FILE).fixture.rules).toHaveLength(corpus.length);
  });

  it("an inserted fact-checker is one added node, nothing removed or changed", async () => {
    const entry = corpus.find((e) => e.id === "e01-fact-checker")!;
    const last = (await run(entry, replayModel(entry.transcript))).at(-1)!;
    expect(last.type === "done" && last.result.diff).toEqual({ added: ["fact_check"], removed: [], changed: [] });
  });

  it("has at least 30 requests with unique request texts, covering the five patterns and edits", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    expect(new Set(corpus.map((e) => e.request)).size).toBe(corpus.length);
    const patterns = new Set(corpus.flatMap((e) => e.pattern.split("+")));
    for (const p of ["routing", "parallel", "evaluator-optimizer", "fsm-traceback", "orchestrator-workers", "edit"])
      expect(patterns).toContain(p);
  });

  describe("over HTTP through the scripted model server (lib/llm)", () => {
    let server: ScriptedServer;
    beforeAll(async () => {
      server = await startScriptedServer({ fixtures: [scriptedFixture(corpus, "designer")] });
    });
    afterAll(() => server.close());

    it.each(corpus.map((e) => [e.id, e] as const))("%s", async (_id, entry) => {
      const model = llmDesignerModel({
        baseURL: server.url,
        apiKey: "scripted",
        model: "scripted-demo",
        timeoutMs: 10_000,
      });
      check(entry, await run(entry, model));
      const mine = server.requests().filter((r) => r.rule === `designer.${entry.id}`);
      expect(mine.length).toBe(entry.golden ? (entry.calls ?? entry.transcript.length) : 4);
    });
  });

  describe("in process (same transcripts)", () => {
    it.each(corpus.map((e) => [e.id, e] as const))("%s", async (_id, entry) => {
      check(entry, await run(entry, replayModel(entry.transcript)));
    });
  });
});
