import { describe, expect, it } from "vitest";
import { doc, fwd } from "@/lib/workflow/testing";
import { mergeOverlappingAgents } from "./merge";

const spec = (key: string, description: string, instructions = "Summarise the text into short bullet points.") => ({
  key,
  name: key,
  description,
  instructions,
});

describe("agent merging (MetaAgent state merging)", () => {
  it("merges agents whose roles overlap and re-points their nodes", () => {
    const wf = doc({
      agents: [spec("a", "meeting summarizer"), spec("b", "meeting summarizer")],
      nodes: [
        { id: "start", type: "start" },
        { id: "x", type: "agent", agent: "a" },
        { id: "y", type: "agent", agent: "b" },
        { id: "end", type: "end" },
      ],
      edges: [fwd("start", "next", "x"), fwd("x", "done", "y"), fwd("y", "done", "end")],
    });
    const { workflow, merged } = mergeOverlappingAgents(wf);
    expect(merged).toEqual([{ kept: "a", removed: "b" }]);
    expect(workflow.agents.map((a) => a.key)).toEqual(["a"]);
    expect(workflow.nodes.filter((n) => n.type === "agent").map((n) => n.type === "agent" && n.agent)).toEqual([
      "a",
      "a",
    ]);
  });

  it("never merges parallel siblings, distinct roles or different models", () => {
    const wf = doc({
      agents: [
        spec("a", "math solver"),
        spec("b", "math solver"),
        spec("c", "outline critic"),
        { ...spec("d", "outline critic"), model: { model: "big" } },
      ],
      nodes: [
        { id: "start", type: "start" },
        { id: "x", type: "agent", agent: "a" },
        { id: "y", type: "agent", agent: "b" },
        { id: "end", type: "end" },
      ],
      edges: [fwd("start", "next", "x"), fwd("start", "next", "y"), fwd("x", "done", "end"), fwd("y", "done", "end")],
    });
    expect(mergeOverlappingAgents(wf).merged).toEqual([]);
  });
});
