import { describe, expect, test } from "vitest";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { instantiateTemplate } from "@/lib/workflow/templates";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { kbAnswerRule, seedFinancialKnowledge, seedKnowledgeBase } from "./testing";

/**
 * The knowledge base inside real workflow runs: a real worker process (BullMQ, PostgreSQL), the scripted
 * model server over HTTP for chat AND embeddings; files uploaded here are searched by the worker's tools.
 */
// This process embeds the uploads; the worker embeds the queries: both use the same scripted server.
const rt = useWorkerRuntime({ modelInProcess: true });

describe("knowledge base in a workflow run", () => {
  test("an agent step answers with the source chunk via kb_answer", { timeout: 150_000 }, async () => {
    const { documents } = await seedKnowledgeBase(rt.workspaceId, "company");
    const pdf = documents.find((d) => d.name === "annual-report.pdf")!;
    rt.model.load(
      [
        {
          rules: [
            {
              id: "lib-call",
              match: { system: "[[librarian]]", tools: ["kb_answer"], lastRole: "user" },
              reply: {
                toolCalls: [
                  { name: "kb_answer", args: { question: "How much did revenue grow?", collection: "company", k: 3 } },
                ],
              },
            },
            kbAnswerRule("lib-kb", "How much did revenue grow?", "Revenue grew 12 percent to 48 million euros [S1]."),
            {
              id: "lib-final",
              match: { system: "[[librarian]]", lastRole: "tool" },
              reply: { text: "Answer with sources: {{lastTool}}" },
            },
          ],
        },
      ],
      "add",
    );
    const doc: WorkflowInput = {
      name: "Ask the knowledge base",
      inputs: [{ key: "question", type: "text" }],
      outputs: [{ key: "answer" }],
      agents: [
        {
          key: "librarian",
          name: "Librarian",
          instructions: "[[librarian]] Answer from the knowledge base and cite sources.",
          model: { model: "scripted-demo" },
          tools: [{ name: "kb_answer" }],
        },
      ],
      nodes: [
        { id: "start", type: "start" },
        { id: "ask", type: "agent", agent: "librarian", task: "{{inputs.question}}" },
        { id: "end", type: "end", outputs: { answer: "{{nodes.ask.output}}" } },
      ],
      edges: [
        { id: "e1", source: "start", sourceHandle: "next", target: "ask" },
        { id: "e2", source: "ask", sourceHandle: "done", target: "end" },
      ],
    };
    const { run: r, steps } = await rt.run(doc, { question: "How much did revenue grow last year?" }, 90_000);
    expect(r.status, r.reason ?? "").toBe("succeeded");
    expect(steps.find((s) => s.nodeId === "ask")?.status).toBe("succeeded");
    const answer = String((r.outputs as { answer?: unknown }).answer);
    const { db } = await import("@/lib/db/client");
    const cited = await db().kbChunk.findFirstOrThrow({ where: { documentId: pdf.id, page: 1 } });
    expect(cited.text).toContain("Revenue grew 12 percent");
    expect(answer).toContain("Revenue grew 12 percent to 48 million euros [S1]");
    expect(answer).toContain(cited.id); // the cited source chunk, by id
    expect(answer).toContain("annual-report.pdf");
    // the model saw the retrieved chunk (in the worker), and the agent got the tool's answer back
    const kbPrompt = JSON.stringify(rt.model.requests().find((q) => q.rule === "lib-kb")?.body);
    expect(kbPrompt).toContain(cited.id);
    expect(rt.model.requests().filter((q) => q.rule === "lib-final")).toHaveLength(1);
  });

  test(
    "scenario C: the document-manager worker reads the filings through kb_query and hands back the source",
    { timeout: 150_000 },
    async () => {
      const { documents } = await seedFinancialKnowledge(rt.workspaceId);
      const tenK = documents.find((d) => d.name === "acme-10k.pdf")!;
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
                      { name: "handoff_to_document_manager", args: { task: "What does the 10-K say about revenue?" } },
                    ],
                  },
                  { toolCalls: [{ name: "handoff_to_market_research", args: { task: "Find competitor news" } }] },
                  { text: "Analysis: revenue up per the filings ({{lastTool}})." },
                ],
              },
              {
                id: "c-doc-query",
                match: { system: "Find, read and summarise", tools: ["kb_query"], lastRole: "user" },
                reply: {
                  toolCalls: [{ name: "kb_query", args: { query: "net revenue rose", collection: "filings", k: 2 } }],
                },
              },
              {
                id: "c-doc-answer",
                match: { system: "Find, read and summarise", lastRole: "tool" },
                reply: { text: "From the filings: {{lastTool}}" },
              },
              { id: "c-mkt", match: { system: "Research market data" }, reply: { text: "Competitors lost share." } },
            ],
          },
        ],
        "add",
      );
      const doc = instantiateTemplate("financial-analyst")!;
      doc.agents = doc.agents.map((a) => ({
        ...a,
        model: { model: "scripted-demo" },
        ...(a.key === "document_manager" ? { tools: [{ name: "kb_query" }] } : {}),
      }));
      const { run: r, events } = await rt.run(doc, { request: "Analyse ACME" }, 90_000);
      expect(r.status, r.reason ?? "").toBe("succeeded");
      const handoffs = events
        .filter((e) => e.type === "handoff")
        .map((e) => e.payload as { worker: string; phase: string; result?: unknown });
      const back = handoffs.find((h) => h.worker === "document_manager" && h.phase === "handback");
      const { db } = await import("@/lib/db/client");
      const chunk = await db().kbChunk.findFirstOrThrow({ where: { documentId: tenK.id, page: 1 } });
      expect(JSON.stringify(back?.result)).toContain(chunk.id);
      expect(JSON.stringify(back?.result)).toContain("Net revenue rose 12 percent");
      expect(handoffs.some((h) => h.worker === "market_research" && h.phase === "handback")).toBe(true);
      expect(JSON.stringify(r.outputs)).toContain("Analysis");
    },
  );
});
