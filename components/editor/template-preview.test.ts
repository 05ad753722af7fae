import { describe, expect, it } from "vitest";
import { workflowTemplates } from "@/lib/workflow/templates";
import { previewGeometry } from "./template-preview";

describe("previewGeometry", () => {
  it("lays every template out left to right along its forward edges, loops drawn separately", () => {
    for (const t of workflowTemplates) {
      const g = previewGeometry(t.workflow);
      expect(g.nodes).toHaveLength(t.workflow.nodes.length);
      const x = new Map(g.nodes.map((n) => [n.id, n.x]));
      for (const e of t.workflow.edges.filter((e) => e.kind === "forward")) {
        expect(x.get(e.target) ?? 0, `${t.id}: ${e.id}`).toBeGreaterThan(x.get(e.source) ?? 0);
      }
    }
    const article = workflowTemplates.find((t) => t.id === "article-writer");
    expect(article && previewGeometry(article.workflow).edges.some((e) => e.loop)).toBe(true);
  });
});
