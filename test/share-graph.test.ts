import { describe, expect, it } from "vitest";
import { sharedGraph } from "@/lib/run-views/share-dto";
import { instantiateTemplate } from "@/lib/workflow/templates";
import { graphToWorkflow } from "@/components/runs/to-props";

describe("graphToWorkflow (shared graph → drawable document)", () => {
  it("keeps ids, kinds, branches and loop caps, and an end node's output names with empty templates", () => {
    const doc = instantiateTemplate("article-writer")!;
    expect(doc.edges.some((e) => e.kind === "loop" && e.maxIterations)).toBe(true);
    const drawn = graphToWorkflow(sharedGraph(doc));
    expect(drawn).not.toBeNull();
    expect(drawn!.nodes.map((n) => [n.id, n.type])).toEqual(doc.nodes.map((n) => [n.id, n.type]));
    expect(drawn!.edges.map((e) => [e.id, e.kind, e.maxIterations ?? null])).toEqual(
      doc.edges.map((e) => [e.id, e.kind, e.maxIterations ?? null]),
    );
    const end = drawn!.nodes.find((n) => n.type === "end");
    const original = doc.nodes.find((n) => n.type === "end");
    expect(end?.type === "end" && end.outputs).toEqual(
      original?.type === "end" ? Object.fromEntries(Object.keys(original.outputs).map((k) => [k, ""])) : null,
    );
  });
});
