import { describe, expect, it } from "vitest";
import type { NodeOf } from "@/lib/workflow/schema";
import { graphToWorkflow, type GraphLike } from "./to-props";

const node = (
  id: string,
  type: string,
  branches: { id: string; label: string }[] = [],
): GraphLike["nodes"][number] => ({
  id,
  type,
  name: id,
  position: null,
  agent: null,
  tool: null,
  branches,
  outputs: [],
});

describe("graphToWorkflow", () => {
  it("keeps a human review's choices as its branches; without them the kind's defaults stand", () => {
    const g: GraphLike = {
      name: "Shared",
      agents: [],
      edges: [],
      nodes: [
        node("start", "start"),
        node("review", "human", [{ id: "publish", label: "Publish" }]),
        node("check", "human"),
      ],
    };
    const doc = graphToWorkflow(g)!;
    const branches = (id: string) => (doc.nodes.find((n) => n.id === id) as NodeOf<"human">).branches.map((b) => b.id);
    expect(branches("review")).toEqual(["publish"]);
    expect(branches("check")).toEqual(["approve", "reject"]);
  });
});
