import { describe, expect, it } from "vitest";
import { workflowSchema } from "@/lib/workflow/schema";
import { compileNode, toDesign } from "./compile";
import { KIND_NAMES, kindCatalogue } from "./kinds";

describe("subflow nodes in the designer", () => {
  it("are not offered to the model without saved workflows in the context (a design could not name one), but are a kind a design may hold", () => {
    expect(kindCatalogue().map((k) => k.kind)).not.toContain("subflow");
    expect(kindCatalogue({ subflows: false }).map((k) => k.kind)).not.toContain("subflow");
    expect(kindCatalogue().map((k) => k.kind)).toContain("human");
    expect(KIND_NAMES).toContain("subflow");
  });

  it("are offered, in lib/workflow's order, with the fields a design carries them in, when the context has saved workflows", () => {
    const offered = kindCatalogue({ subflows: true });
    expect(offered.map((k) => k.kind)).toEqual([
      "start",
      "agent",
      "router",
      "tool",
      "orchestrator",
      "human",
      "subflow",
      "map",
      "end",
      "abort",
    ]);
    expect(offered.find((k) => k.kind === "subflow")).toMatchObject({
      fields: expect.stringContaining(
        "workflowId, inputs, join (workflowId = an id from the saved workflows; inputs = {<its input key>: template})",
      ),
      outcomes: "done",
    });
    expect(offered.filter((k) => k.kind !== "subflow")).toEqual(kindCatalogue());
  });

  it("round-trip through the design form (an edited graph keeps its subflow, pinned version and inputs)", () => {
    const wf = workflowSchema.parse({
      nodes: [
        { id: "start", type: "start" },
        { id: "sub", type: "subflow", workflowId: "wf-1", version: 3, inputs: { topic: "{{inputs.topic}}" } },
        { id: "end", type: "end" },
      ],
      edges: [
        { id: "a", source: "start", sourceHandle: "next", target: "sub" },
        { id: "b", source: "sub", sourceHandle: "done", target: "end" },
      ],
    });
    const node = toDesign(wf).design.nodes.find((n) => n.id === "sub")!;
    expect(node).toMatchObject({
      kind: "subflow",
      workflowId: "wf-1",
      version: 3,
      inputs: { topic: "{{inputs.topic}}" },
    });
    expect(compileNode(node)).toMatchObject({
      id: "sub",
      type: "subflow",
      workflowId: "wf-1",
      version: 3,
      inputs: { topic: "{{inputs.topic}}" },
    });
  });

  it("read a design's legacy subflow args, dropping what is malformed instead of failing", () => {
    expect(
      compileNode({ id: "s", kind: "subflow", args: { workflowId: 7, version: -1, inputs: { ok: "x", bad: 3 } } }),
    ).toEqual({ id: "s", name: "", type: "subflow", workflowId: "", inputs: { ok: "x" } });
  });
});
