import { describe, expect, it } from "vitest";
import { approveToolVersion } from "@/lib/db/tools";
import { seedFinancialKnowledge } from "@/lib/kb/testing";
import { scriptedModelConfig } from "@/lib/llm/models";
import { createTool } from "@/lib/tools/create";
import type { Workflow } from "@/lib/workflow/schema";
import { instantiateTemplate } from "@/lib/workflow/templates";
import { useWorkerRuntime } from "@/test/helpers/runtime";

/**
 * Scenario C in full (docs/workflow-model.md): the financial analyst
 * orchestrator hands work to a document-manager worker that searches the knowledge base (real
 * PostgreSQL chunks, scripted embeddings) and to a market-research worker that calls a tool the
 * system wrote for itself (creation loop: a failing first attempt, a fixed second one, approved by
 * the owner). Real worker process, BullMQ, PostgreSQL and the scripted model server over HTTP.
 */
// This process seeds the knowledge base and creates the tool: its model calls go to the same scripted server as the worker's.
const rt = useWorkerRuntime({ modelInProcess: true });

const draft = (code: string) => ({
  name: "percent_change",
  description: "Computes the percentage change from an old value to a new value",
  argsSchema: {
    type: "object",
    properties: { from: { type: "number" }, to: { type: "number" } },
    required: ["from", "to"],
  },
  tests: [
    { input: { from: 100, to: 112 }, expected: { percent: 12 } },
    { input: { from: 50, to: 25 }, expected: { percent: -50 } },
  ],
  code,
});

describe("C: financial analyst with a knowledge-base worker and a created tool", () => {
  it(
    "documents come from the knowledge base, market numbers from the created tool; each worker hands back",
    { timeout: 240_000 },
    async () => {
      await seedFinancialKnowledge(rt.workspaceId, "filings");

      // 1. The market researcher needs a tool that does not exist: the creation loop writes it.
      rt.model.load(
        [
          {
            rules: [
              {
                id: "c-write-tool",
                match: { schema: "write_tool" },
                sequence: [
                  { json: draft("function run(i) { return { percent: (i.to - i.from) / i.from } }") },
                  {
                    json: draft(
                      "function run(i) { return { percent: Math.round((i.to - i.from) / i.from * 10000) / 100 } }",
                    ),
                  },
                ],
              },
            ],
          },
        ],
        "add",
      );
      const created = await createTool({
        workspaceId: rt.workspaceId,
        request: "a tool computing the percentage change between an old and a new value",
        config: { ...scriptedModelConfig(rt.model.port), model: "scripted-demo" },
      });
      if (created.status !== "ready") throw new Error(`tool not created: ${JSON.stringify(created)}`);
      expect(created.rounds).toBe(2);
      await approveToolVersion(rt.workspaceId, created.version.id, created.version.codeHash!);

      // 2. The template, with the workers' tools: kb_query for documents, the created tool for market data.
      const doc = instantiateTemplate("financial-analyst") as Workflow;
      doc.agents = doc.agents.map((a) =>
        a.key === "document_manager"
          ? { ...a, tools: [{ name: "kb_query" }] }
          : a.key === "market_research"
            ? { ...a, tools: [{ name: "percent_change" }] }
            : a,
      );

      rt.model.load(
        [
          {
            rules: [
              {
                id: "c-lead",
                match: { system: "Plan the analysis", tools: ["handoff_to_document_manager"] },
                sequence: [
                  {
                    toolCalls: [
                      {
                        name: "handoff_to_document_manager",
                        args: { task: "What did the 10-K say about net revenue?" },
                      },
                    ],
                  },
                  {
                    toolCalls: [
                      {
                        name: "handoff_to_market_research",
                        args: { task: "Revenue went from 3.75 to 4.2 billion: what is the growth?" },
                      },
                    ],
                  },
                  { text: "Analysis: revenue growth confirmed by the filing and the market numbers." },
                ],
              },
              {
                id: "c-doc-search",
                match: { system: "Find, read and summarise", tools: ["kb_query"], lastRole: "user" },
                reply: {
                  toolCalls: [{ name: "kb_query", args: { query: "net revenue growth", collection: "filings", k: 2 } }],
                },
              },
              {
                id: "c-doc-answer",
                match: { system: "Find, read and summarise", lastRole: "tool" },
                reply: { text: "From the filings: {{lastTool}}" },
              },
              {
                id: "c-mkt-call",
                match: { system: "Research market data", tools: ["percent_change"], lastRole: "user" },
                reply: { toolCalls: [{ name: "percent_change", args: { from: 3.75, to: 4.2 } }] },
              },
              {
                id: "c-mkt-answer",
                match: { system: "Research market data", lastRole: "tool" },
                reply: { text: "Market growth: {{lastTool}}" },
              },
            ],
          },
        ],
        "add",
      );

      const { run, events } = await rt.run(doc, { request: "Analyse ACME's revenue" }, 120_000);
      expect(run.status, run.reason ?? "").toBe("succeeded");

      const handoffs = events
        .filter((e) => e.type === "handoff")
        .map((e) => e.payload as { worker: string; phase: string; result?: string });
      for (const w of ["document_manager", "market_research"]) {
        expect(handoffs.filter((h) => h.worker === w && h.phase === "handoff").length).toBeGreaterThanOrEqual(1);
        expect(handoffs.filter((h) => h.worker === w && h.phase === "handback").length).toBeGreaterThanOrEqual(1);
      }
      const back = (w: string) =>
        handoffs
          .filter((h) => h.worker === w && h.phase === "handback")
          .map((h) => h.result ?? "")
          .join("\n");
      // The document manager's answer carries the knowledge-base chunk and its source document.
      expect(back("document_manager")).toContain("Net revenue rose 12 percent");
      expect(back("document_manager")).toContain("acme-10k.pdf");
      // The market researcher's answer is the created tool's output (12 % growth), run in the sandbox.
      expect(back("market_research")).toMatch(/percent\\?"?:\s*12\b/);
      expect(rt.model.requests().filter((r) => r.rule === "c-mkt-answer")).toHaveLength(1);
      expect(JSON.stringify(run.outputs)).toContain("Analysis");
    },
  );
});
