import { describe, expect, it } from "vitest";
import { documentToEdges, type NodeRunState } from "@/components/editor/flow-mapping";
import { nodeTexts, vocabularyDocuments as documents } from "@/components/terms/testing";
import { joinBadge } from "@/components/terms/words";
import { graphToWorkflow } from "@/components/runs/to-props";
import { stepStatuses } from "@/lib/engine/events";
import { sharedGraph } from "@/lib/run-views/share-dto";
import type { Workflow } from "@/lib/workflow/schema";
import { workflowTemplates } from "@/lib/workflow/templates";

/**
 * The vocabulary test (share page side): the run dashboard draws the owner's document, this page the
 * document rebuilt from the shared graph (lib/run-views/share-dto → graphToWorkflow); both draw every node
 * and edge of the templates and of random documents with the same text, statuses included.
 */

/** The share page's document for `doc`: through the shared graph, as its page gets it. */
const shared = (doc: Workflow): Workflow => {
  const rebuilt = graphToWorkflow(sharedGraph(doc));
  if (!rebuilt) throw new Error("the shared graph does not rebuild");
  return rebuilt;
};

describe("one vocabulary: the run dashboard and the share page", () => {
  it.each(documents)(
    "%s: every node shows the same text on both pages, with and without a run's statuses",
    (_, doc) => {
      const run = new Map<string, NodeRunState>(
        doc.nodes.map((n, i) => [n.id, { status: stepStatuses[i % stepStatuses.length]!, iteration: 1 + (i % 3) }]),
      );
      for (const overlay of [undefined, run]) {
        const dashboard = nodeTexts(doc, "run", overlay);
        const share = nodeTexts(shared(doc), "run", overlay);
        expect(Object.fromEntries(share)).toEqual(Object.fromEntries(dashboard));
      }
    },
  );

  it.each(documents)("%s: edges carry the same labels on both pages", (_, doc) => {
    const labels = (d: Workflow) => Object.fromEntries(documentToEdges(d).map((e) => [e.id, e.label ?? ""]));
    expect(labels(shared(doc))).toEqual(labels(doc));
  });

  it('says the same about a join that starts on any input (the dashboard said "any of 2", the share page "waits 2/2")', () => {
    const base = workflowTemplates.find((t) => t.id === "majority-vote")!.workflow;
    const doc = { ...base, nodes: base.nodes.map((n) => (n.id === "aggregate" ? { ...n, join: "any" as const } : n)) };
    const badge = joinBadge("any", 3);
    expect(nodeTexts(doc, "run").get("aggregate")).toContain(badge);
    expect(nodeTexts(shared(doc), "run").get("aggregate")).toContain(badge);
    expect(nodeTexts(doc, "design").get("aggregate")).toContain(badge);
  });
});
