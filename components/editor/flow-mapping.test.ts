import { describe, expect, it } from "vitest";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";
import { documentToEdges, documentToFlow, flowToDocument, loopLanes, reuseNodes, TARGET_HANDLE } from "./flow-mapping";

/** Scenario A (article writer), with positions on some nodes and none on others. */
function articleWriter(): Workflow {
  return workflowSchema.parse({
    name: "Article writer",
    inputs: [{ key: "topic" }],
    outputs: [{ key: "article" }],
    agents: [
      { key: "researcher", name: "Researcher", instructions: "Research", model: { model: "scripted" } },
      { key: "outliner", name: "Outliner", tools: [{ name: "web_search" }] },
      { key: "critic", name: "Critic" },
      { key: "writer", name: "Writer" },
    ],
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 } },
      { id: "research", type: "agent", agent: "researcher", position: { x: 250, y: 10 } },
      {
        id: "outline",
        type: "agent",
        agent: "outliner",
        task: "Outline {{inputs.topic}}",
        position: { x: 500, y: 20.5 },
      },
      {
        id: "evaluate",
        type: "agent",
        agent: "critic",
        branches: [
          { id: "approved", label: "Approved", condition: "good" },
          { id: "revise", label: "Revise", condition: "needs work" },
        ],
      },
      { id: "write", type: "agent", agent: "writer", position: { x: 1000, y: 0 } },
      { id: "end", type: "end", outputs: { article: "{{nodes.write.output}}" }, position: { x: 1250, y: 0 } },
    ],
    edges: [
      { id: "e1", source: "start", sourceHandle: "next", target: "research" },
      { id: "e2", source: "research", sourceHandle: "done", target: "outline" },
      { id: "e3", source: "outline", sourceHandle: "done", target: "evaluate" },
      { id: "e4", source: "evaluate", sourceHandle: "approved", target: "write" },
      {
        id: "loop",
        source: "evaluate",
        sourceHandle: "revise",
        target: "outline",
        kind: "loop",
        maxIterations: 3,
        onExhausted: "continue",
      },
      { id: "e5", source: "write", sourceHandle: "done", target: "end" },
    ],
  });
}

describe("documentToFlow", () => {
  it("maps every node with its id, kind, stored position and one handle per outcome", () => {
    const { nodes } = documentToFlow(articleWriter());
    expect(nodes.map((n) => [n.id, n.type])).toEqual([
      ["start", "start"],
      ["research", "agent"],
      ["outline", "agent"],
      ["evaluate", "agent"],
      ["write", "agent"],
      ["end", "end"],
    ]);
    expect(nodes[2]?.position).toEqual({ x: 500, y: 20.5 });
    const evaluate = nodes.find((n) => n.id === "evaluate");
    expect(evaluate?.data.handles).toEqual([
      { id: "approved", label: "Approved" },
      { id: "revise", label: "Revise" },
    ]);
    expect(nodes.find((n) => n.id === "start")?.data.handles).toEqual([{ id: "next", label: "next" }]);
    expect(nodes.find((n) => n.id === "end")?.data.handles).toEqual([]);
    expect(nodes.find((n) => n.id === "research")?.data.agent?.name).toBe("Researcher");
  });

  it("gives a human review one handle per branch, labelled like an agent's", () => {
    const doc = workflowSchema.parse({
      nodes: [
        {
          id: "review",
          type: "human",
          branches: [
            { id: "approve", label: "Approve" },
            { id: "changes", label: "" },
          ],
        },
      ],
    });
    expect(documentToFlow(doc).nodes[0]?.data.handles).toEqual([
      { id: "approve", label: "Approve" },
      { id: "changes", label: "changes" },
    ]);
    const defaults = workflowSchema.parse({ nodes: [{ id: "review", type: "human" }] });
    expect(documentToFlow(defaults).nodes[0]?.data.handles).toEqual([
      { id: "approve", label: "Approve" },
      { id: "reject", label: "Reject" },
    ]);
  });

  it("types loop edges distinctly with their cap as label, and counts only forward edges as inputs", () => {
    const { nodes, edges } = documentToFlow(articleWriter());
    const loop = edges.find((e) => e.id === "loop");
    expect(loop).toMatchObject({
      type: "loop",
      source: "evaluate",
      sourceHandle: "revise",
      target: "outline",
      targetHandle: TARGET_HANDLE,
      label: "↺ ≤ 3",
    });
    expect(edges.find((e) => e.id === "e4")).toMatchObject({ type: "forward", sourceHandle: "approved" });
    expect(nodes.find((n) => n.id === "outline")?.data.incoming).toBe(1);
  });

  it("labels a loop edge without a cap with '↺ ≤ ?' so the missing cap is visible", () => {
    const doc = articleWriter();
    const edges = doc.edges.map((e) => (e.id === "loop" ? { ...e, maxIterations: undefined } : e));
    const flow = documentToFlow({ ...doc, edges });
    expect(flow.edges.find((e) => e.id === "loop")?.label).toBe("↺ ≤ ?");
  });

  it("attaches validation issues and run state from the overlay", () => {
    const flow = documentToFlow(articleWriter(), {
      issues: new Map([
        ["write", ["unreachable"]],
        ["e5", ["bad edge"]],
      ]),
      run: new Map([["outline", { status: "running", iteration: 2 }]]),
    });
    expect(flow.nodes.find((n) => n.id === "write")?.data.issues).toEqual(["unreachable"]);
    expect(flow.edges.find((e) => e.id === "e5")?.data?.issues).toEqual(["bad edge"]);
    expect(flow.nodes.find((n) => n.id === "outline")?.data.run).toEqual({ status: "running", iteration: 2 });
  });
});

describe("flowToDocument", () => {
  it("round trip keeps ids, positions, branches and loop caps", () => {
    const doc = articleWriter();
    const { nodes, edges } = documentToFlow(doc);
    const back = flowToDocument(doc, nodes, edges);
    const positioned = doc.nodes.filter((n) => n.position);
    for (const n of positioned) expect(back.nodes.find((m) => m.id === n.id)).toBe(n);
    expect(back.edges).toEqual(doc.edges);
    expect(back.edges.find((e) => e.id === "loop")).toMatchObject({
      kind: "loop",
      maxIterations: 3,
      onExhausted: "continue",
    });
    const evaluate = back.nodes.find((n) => n.id === "evaluate");
    expect(evaluate?.type === "agent" && evaluate.branches.map((b) => b.id)).toEqual(["approved", "revise"]);
    expect(workflowSchema.parse(back)).toEqual({ ...doc, nodes: back.nodes });
  });

  it("writes canvas positions back (a node without one gets the position it is drawn at)", () => {
    const doc = articleWriter();
    const { nodes, edges } = documentToFlow(doc);
    const moved = nodes.map((n) => (n.id === "research" ? { ...n, position: { x: 42, y: -7 } } : n));
    const back = flowToDocument(doc, moved, edges);
    expect(back.nodes.find((n) => n.id === "research")?.position).toEqual({ x: 42, y: -7 });
    expect(back.nodes.find((n) => n.id === "evaluate")?.position).toEqual(nodes[3]?.position);
    expect(Object.keys(back.nodes[1] ?? {})).not.toContain("measured");
  });

  it("follows a reconnected edge", () => {
    const doc = articleWriter();
    const { nodes, edges } = documentToFlow(doc);
    const rewired = edges.map((e) => (e.id === "e4" ? { ...e, target: "end" } : e));
    expect(flowToDocument(doc, nodes, rewired).edges.find((e) => e.id === "e4")?.target).toBe("end");
  });
});

describe("reuseNodes", () => {
  it("keeps the previous object for untouched nodes and replaces only changed ones", () => {
    const doc = articleWriter();
    const prev = documentToFlow(doc).nodes;
    const changed = { ...doc, nodes: doc.nodes.map((n) => (n.id === "write" ? { ...n, name: "Writer 2" } : n)) };
    const next = reuseNodes(prev, documentToFlow(changed).nodes);
    expect(next.filter((n, i) => n !== prev[i]).map((n) => n.id)).toEqual(["write"]);
  });

  it("replaces a node whose 'now writing' line changed while its status stayed running", () => {
    const doc = articleWriter();
    const running = (writing?: string) =>
      documentToFlow(doc, {
        run: new Map([["outline", { status: "running", iteration: 1, ...(writing ? { writing } : {}) }]]),
      }).nodes;
    const first = reuseNodes([], running());
    const writing = reuseNodes(first, running("Writing: The plan"));
    expect(writing.filter((n, i) => n !== first[i]).map((n) => n.id)).toEqual(["outline"]);
    expect(writing.find((n) => n.id === "outline")?.data.run?.writing).toBe("Writing: The plan");
    const more = reuseNodes(writing, running("Writing: The plan, then"));
    expect(more.filter((n, i) => n !== writing[i]).map((n) => n.id)).toEqual(["outline"]);
    expect(reuseNodes(more, running("Writing: The plan, then")).every((n, i) => n === more[i])).toBe(true);
  });
});

describe("loopLanes", () => {
  it("puts a loop one lane under every shorter loop whose stretch it overlaps", () => {
    const doc = workflowSchema.parse({
      nodes: ["start", "a", "b", "c", "d", "end"].map((id, i) => ({
        id,
        type: id === "start" || id === "end" ? id : "agent",
        agent: "x",
        position: { x: i * 280, y: 0 },
      })),
      agents: [{ key: "x", name: "X" }],
      edges: [
        { id: "short", source: "c", sourceHandle: "done", target: "b", kind: "loop", maxIterations: 2 },
        { id: "long", source: "d", sourceHandle: "done", target: "a", kind: "loop", maxIterations: 2 },
        { id: "apart", source: "end", sourceHandle: "done", target: "d", kind: "loop", maxIterations: 2 },
        { id: "f", source: "a", sourceHandle: "done", target: "b" },
      ],
    });
    const lanes = loopLanes(doc);
    // two short loops side by side share the innermost lane; the long one spans (or touches) both
    expect(lanes.get("short")).toBe(0);
    expect(lanes.get("apart")).toBe(0);
    expect(lanes.get("long")).toBe(1);
    expect(lanes.has("f")).toBe(false);
    expect(documentToEdges(doc).find((e) => e.id === "long")?.data.lane).toBe(1);
  });
});
