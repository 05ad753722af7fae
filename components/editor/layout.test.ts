import { describe, expect, it } from "vitest";
import { workflowSchema } from "@/lib/workflow/schema";
import { layoutDocument } from "./layout";

const doc = workflowSchema.parse({
  agents: [{ key: "a", name: "A" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "outline", type: "agent", agent: "a" },
    { id: "evaluate", type: "agent", agent: "a", branches: [{ id: "approved" }, { id: "revise" }] },
    { id: "write", type: "agent", agent: "a" },
    { id: "end", type: "end" },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "outline" },
    { id: "e2", source: "outline", sourceHandle: "done", target: "evaluate" },
    { id: "e3", source: "evaluate", sourceHandle: "approved", target: "write" },
    { id: "loop", source: "evaluate", sourceHandle: "revise", target: "outline", kind: "loop", maxIterations: 3 },
    { id: "e4", source: "write", sourceHandle: "done", target: "end" },
  ],
});

describe("layoutDocument", () => {
  it("lays the forward path out left to right, ignoring the loop edge back", async () => {
    const pos = await layoutDocument(doc);
    const xs = ["start", "outline", "evaluate", "write", "end"].map((id) => pos.get(id)?.x ?? NaN);
    for (let i = 1; i < xs.length; i++) expect(xs[i]).toBeGreaterThan(xs[i - 1] ?? Infinity);
  });

  it("places a node without edges too", async () => {
    const lonely = {
      ...doc,
      nodes: [...doc.nodes, { id: "x", type: "abort" as const, name: "", join: "all" as const, reason: "r" }],
    };
    const pos = await layoutDocument(lonely);
    expect(pos.size).toBe(6);
  });
});
