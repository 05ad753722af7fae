import { describe, expect, it } from "vitest";
import { workflowSchema } from "@/lib/workflow/schema";
import { versionDiff } from "./version-diff";

const v1 = workflowSchema.parse({
  agents: [{ key: "a", name: "A" }],
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 } },
    { id: "x", type: "agent", agent: "a", position: { x: 100, y: 0 } },
    { id: "gone", type: "end", position: { x: 200, y: 0 } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "x" },
    { id: "e2", source: "x", sourceHandle: "done", target: "gone" },
  ],
});

describe("versionDiff", () => {
  it("marks added, changed and removed nodes and edges of the draft against a version", () => {
    const draft = {
      ...v1,
      inputs: [{ key: "topic", type: "string" as const, description: "", required: true }],
      nodes: [
        v1.nodes[0]!,
        { ...v1.nodes[1]!, name: "Renamed" },
        { id: "new", type: "end" as const, name: "", join: "all" as const, outputs: {} },
      ],
      edges: [v1.edges[0]!, { id: "e3", source: "x", sourceHandle: "done", target: "new", kind: "forward" as const }],
    };
    const d = versionDiff(v1, draft);
    expect(Object.fromEntries(d.marks)).toEqual({
      x: "changed",
      new: "added",
      gone: "removed",
      e2: "removed",
      e3: "added",
    });
    expect(d.settings).toEqual(["inputs"]);
  });

  it("finds nothing between equal documents", () => {
    expect(versionDiff(v1, structuredClone(v1)).count).toBe(0);
  });
});
