import { describe, expect, it } from "vitest";
import { describeGroup } from "@/components/designer/proposal";
import { stepStatuses } from "@/lib/engine/events";
import { diffGrouped } from "@/lib/workflow/diff";
import { nodeKindRegistry } from "@/lib/workflow/registry";
import { nodeKinds, workflowSchema } from "@/lib/workflow/schema";
import { workflowTemplates } from "@/lib/workflow/templates";
import { KIND_TERMS } from "./kinds";
import { BADGE_TONE, FILL_CLASS, RING_CLASS, STATUS_TERMS, statusLabel, statusTone } from "./status";
import { nodeTexts, vocabularyDocuments as documents } from "./testing";
import { joinBadge, nodeTitle } from "./words";

/**
 * The vocabulary test (editor side): the editor, the run views and the designer's proposal name nodes,
 * kinds, joins and outcomes with the same words, and every status has one word and one colour family.
 * The dashboard against the share page: app/share/[token]/vocabulary.test.tsx.
 */

describe("one vocabulary: the editor and the designer's proposal", () => {
  it.each(documents)("%s: the editor names each node, its kind, join and outcomes as the run views do", (_, doc) => {
    const design = nodeTexts(doc, "design");
    const run = nodeTexts(doc, "run");
    const incoming = new Map<string, number>();
    for (const e of doc.edges) if (e.kind === "forward") incoming.set(e.target, (incoming.get(e.target) ?? 0) + 1);
    for (const node of doc.nodes) {
      const words = [
        nodeTitle(node),
        KIND_TERMS[node.type].label,
        ...(incoming.get(node.id)! > 1 ? [joinBadge(node.join, incoming.get(node.id)!)] : []),
      ];
      for (const w of words) {
        expect(design.get(node.id)).toContain(w);
        expect(run.get(node.id)).toContain(w);
      }
    }
  });

  it.each(documents)("%s: a proposal names its nodes by the titles the canvas draws", (_, doc) => {
    const groups = diffGrouped(workflowSchema.parse({ name: "blank" }), doc);
    for (const g of groups.filter((x) => x.nodeId)) {
      const node = doc.nodes.find((n) => n.id === g.nodeId)!;
      expect(describeGroup(g, { base: workflowSchema.parse({ name: "blank" }), proposal: doc })).toBe(
        `Add node "${nodeTitle(node)}"`,
      );
    }
  });

  it("names every kind as lib/workflow's registry does", () => {
    for (const kind of nodeKinds) expect(KIND_TERMS[kind].label).toBe(nodeKindRegistry[kind].label);
  });
});

describe("one vocabulary: statuses", () => {
  it("gives every run and step status one word and one colour family, drawn the same way by badge, ring and bar", () => {
    for (const [status, term] of Object.entries(STATUS_TERMS)) {
      expect(statusLabel(status)).toBe(term.label);
      expect(term.label).toBe(status.replace(/_/g, " "));
      const tone = statusTone(status);
      expect(BADGE_TONE[tone]).toBeDefined();
      expect(RING_CLASS[tone]).toBeDefined();
      expect(FILL_CLASS[tone]).toBeDefined();
    }
    for (const status of stepStatuses) expect(STATUS_TERMS[status]).toBeDefined();
  });

  it("shows a node's run status on the canvas in the status's word", () => {
    const doc = workflowTemplates[0]!.workflow;
    for (const status of stepStatuses) {
      const texts = nodeTexts(doc, "run", new Map([[doc.nodes[1]!.id, { status, iteration: 1 }]]));
      expect(texts.get(doc.nodes[1]!.id)).toContain(statusLabel(status));
    }
  });
});
