import { describe, expect, it } from "vitest";
import { validate } from "@/lib/workflow/validate";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";
import {
  addNode,
  connect,
  copySelection,
  paste,
  removeElements,
  updateEdge,
  updateNode,
  type Clip,
} from "./editor-ops";
import type { Edit } from "./use-editor-document";

const run = (doc: Workflow, ...edits: Edit[]): Workflow =>
  edits.reduce((d, e) => {
    const r = e(d);
    if (!r.ok) throw new Error(r.error);
    return r.doc;
  }, doc);

const blank = () => workflowSchema.parse({ nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 } }] });
const link = (source: string, sourceHandle: string, target: string) =>
  connect({ source, sourceHandle, target, targetHandle: "in" });

describe("editor edits", () => {
  it("builds the article writer by gestures only: nodes, branches, forward edges and a capped loop back", () => {
    let doc = run(
      blank(),
      ...["agent", "agent", "agent", "agent", "end"].map((k, i) =>
        addNode(k as "agent" | "end", { x: 200 * (i + 1), y: 0 }),
      ),
    );
    expect(doc.nodes.map((n) => n.id)).toEqual(["start", "agent1", "agent2", "agent3", "agent4", "end1"]);
    expect(doc.agents.map((a) => a.key)).toEqual(["agent1", "agent2", "agent3", "agent4"]);
    doc = run(
      doc,
      updateNode("agent3", {
        branches: [
          { id: "approved", label: "Approved", condition: "" },
          { id: "revise", label: "Revise", condition: "" },
        ],
      }),
    );
    doc = run(
      doc,
      link("start", "next", "agent1"),
      link("agent1", "done", "agent2"),
      link("agent2", "done", "agent3"),
      link("agent3", "approved", "agent4"),
      link("agent4", "done", "end1"),
      link("agent3", "revise", "agent2"),
    );
    const loop = doc.edges.find((e) => e.sourceHandle === "revise");
    expect(loop).toMatchObject({ kind: "loop", target: "agent2", maxIterations: 3, onExhausted: "continue" });
    doc = run(doc, updateEdge(loop?.id ?? "", { maxIterations: 5 }));
    expect(doc.edges.find((e) => e.id === loop?.id)?.maxIterations).toBe(5);
    expect(validate(doc).filter((i) => i.severity === "error" && i.code !== "unknown_model")).toEqual([]);
  });

  it("adds a human review with its default choices and no agent spec, and wires each choice", () => {
    let doc = run(
      blank(),
      addNode("human", { x: 200, y: 0 }),
      addNode("end", { x: 400, y: 0 }),
      addNode("abort", { x: 400, y: 100 }),
    );
    const human = doc.nodes.find((n) => n.id === "human1");
    expect(human).toMatchObject({
      type: "human",
      name: "Human review 1",
      prompt: "",
      fields: [],
      branches: [{ id: "approve" }, { id: "reject" }],
    });
    expect(doc.agents).toEqual([]);
    doc = run(
      doc,
      link("start", "next", "human1"),
      link("human1", "approve", "end1"),
      link("human1", "reject", "abort1"),
    );
    expect(doc.edges.map((e) => `${e.source}.${e.sourceHandle}->${e.target}`)).toEqual([
      "start.next->human1",
      "human1.approve->end1",
      "human1.reject->abort1",
    ]);
    expect(link("human1", "done", "end1")(doc)).toMatchObject({
      ok: false,
      error: expect.stringContaining('no outcome "done"'),
    });
  });

  it("refuses what the model forbids, with the reason", () => {
    const doc = run(blank(), addNode("end", { x: 1, y: 1 }));
    expect(addNode("start", { x: 0, y: 0 })(doc)).toEqual({
      ok: false,
      error: "A workflow has exactly one start node.",
    });
    expect(link("end1", "next", "start")(doc)).toMatchObject({
      ok: false,
      error: expect.stringContaining("start node cannot have incoming"),
    });
    const wired = run(doc, link("start", "next", "end1"));
    expect(link("start", "next", "end1")(wired)).toMatchObject({
      ok: false,
      error: expect.stringContaining("already connected"),
    });
    expect(removeElements(["start"], [])(wired)).toMatchObject({ ok: false });
  });

  it("removes a node with its edges in one step; unsetting a field removes it", () => {
    let doc = run(blank(), addNode("agent", { x: 0, y: 0 }), link("start", "next", "agent1"));
    doc = run(doc, removeElements(["agent1"], []));
    expect(doc.edges).toEqual([]);
    doc = run(
      blank(),
      addNode("agent", { x: 0, y: 0 }),
      updateNode("agent1", { timeoutMs: 500 }),
      updateNode("agent1", { timeoutMs: undefined }),
    );
    expect(doc.nodes[1]).not.toHaveProperty("timeoutMs");
  });

  it("pastes copies with fresh ids and their inner edges, offset", () => {
    const doc = run(
      blank(),
      addNode("agent", { x: 10, y: 10 }),
      addNode("end", { x: 300, y: 10 }),
      link("agent1", "done", "end1"),
    );
    const clip: Clip = copySelection(doc, ["agent1", "end1", "start"]);
    expect(clip.nodes.map((n) => n.id)).toEqual(["agent1", "end1"]);
    const pasted = run(doc, paste(clip));
    expect(pasted.nodes.map((n) => n.id)).toEqual(["start", "agent1", "end1", "agent2", "end2"]);
    expect(pasted.nodes[3]?.position).toEqual({ x: 50, y: 50 });
    expect(pasted.edges.at(-1)).toMatchObject({ source: "agent2", target: "end2" });
  });
});
