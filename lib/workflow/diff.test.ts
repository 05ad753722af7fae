import { describe, expect, it } from "vitest";
import { diffDocuments, diffGrouped } from "./diff";
import { applyOperation, applyOperations, type Operation } from "./operations";
import type { Workflow } from "./schema";
import { agent, doc, fwd, loop } from "./testing";

const a = doc({
  name: "A",
  inputs: [{ key: "topic" }],
  agents: [agent("writer"), agent("critic")],
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 } },
    { id: "draft", type: "agent", agent: "writer", task: "Write {{inputs.topic}}", position: { x: 1, y: 0 } },
    {
      id: "review",
      type: "agent",
      agent: "critic",
      task: "Review",
      branches: [{ id: "ok" }, { id: "again" }],
      maxTurnsPerVisit: 2,
    },
    { id: "end", type: "end", outputs: { text: "{{nodes.draft.output}}" } },
    { id: "old", type: "abort" },
  ],
  edges: [
    fwd("start", "next", "draft"),
    fwd("draft", "done", "review"),
    fwd("review", "ok", "end"),
    loop("review", "again", "draft"),
    fwd("review", "ok", "old", "to-old"),
  ],
});

const roundTrip = (x: Workflow, y: Workflow) => expect(applyOperations(x, diffDocuments(x, y))).toEqual(y);

describe("diffDocuments", () => {
  it("is empty for equal documents", () => {
    expect(diffDocuments(a, structuredClone(a))).toEqual([]);
  });

  it("round-trips a mixed change, grouped per node", () => {
    const b = applyOperations(a, [
      { type: "setInfo", name: "B", defaultModel: { model: "m" } },
      { type: "addAgent", agent: { key: "editor", name: "Editor", description: "", instructions: "", tools: [] } },
      { type: "removeAgent", key: "critic" },
      { type: "removeNode", id: "old" },
      { type: "moveNode", id: "draft", position: { x: 5, y: 5 } },
      { type: "updateNode", id: "review", patch: { agent: "editor" }, unset: ["maxTurnsPerVisit"] },
      {
        type: "addNode",
        node: {
          id: "polish",
          type: "agent",
          agent: "editor",
          task: "",
          branches: [{ id: "done", label: "", condition: "" }],
          name: "",
          join: "all",
        },
        index: 1,
      },
      { type: "addEdge", edge: fwd("polish", "done", "end") },
      { type: "updateEdge", id: "review-ok-end", patch: { target: "polish" } },
      { type: "updateEdge", id: "review-again-draft", patch: { maxIterations: 5 }, unset: ["onExhausted"] },
    ]);
    roundTrip(a, b);
    roundTrip(b, a);
    const groups = diffGrouped(a, b);
    expect(groups.map((g) => g.label)).toEqual([
      "Workflow settings and agents",
      'Remove node "old"',
      'Add node "polish"',
      'Move node "draft"',
      'Change node "review"',
      'Rewire node "end"',
      "Order of nodes, edges and agents",
    ]);
    expect(groups.find((g) => g.nodeId === "draft")?.ops).toEqual([
      { type: "moveNode", id: "draft", position: { x: 5, y: 5 } },
    ]);
    expect(groups.find((g) => g.nodeId === "polish")?.ops.map((o) => o.type)).toEqual(["addNode"]);
    // edges live in the group of their later endpoint, so a group never needs a node added after it
    expect(groups.find((g) => g.nodeId === "review")?.ops.map((o) => o.type)).toEqual([
      "updateNode",
      "updateEdge",
      "updateEdge",
    ]);
    expect(groups.find((g) => g.nodeId === "end")?.ops).toEqual([
      { type: "addEdge", edge: fwd("polish", "done", "end") },
    ]);
  });

  it("lets groups be accepted one by one, in order", () => {
    const b = applyOperations(a, [
      { type: "addNode", node: { id: "n1", type: "abort", reason: "x", name: "", join: "all" } },
      { type: "addNode", node: { id: "n2", type: "abort", reason: "y", name: "", join: "all" } },
      { type: "addEdge", edge: fwd("review", "ok", "n2", "to-n2") },
    ]);
    let current = a;
    for (const group of diffGrouped(a, b)) current = applyOperations(current, group.ops);
    expect(current).toEqual(b);
  });

  it("re-adds an edge that a removed node took with it", () => {
    const b = structuredClone(a);
    b.nodes = b.nodes.filter((n) => n.id !== "old");
    b.nodes.push({ id: "other", type: "abort", reason: "r", name: "", join: "all" });
    b.edges = b.edges.map((e) => (e.id === "to-old" ? { ...e, target: "other" } : e));
    roundTrip(a, b);
  });

  it("round-trips random edit sequences", () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const ids = ["p", "q", "r", "s"];
    for (let trial = 0; trial < 60; trial++) {
      let b = a;
      for (let step = 0; step < 6; step++) {
        const nodes = b.nodes.map((n) => n.id);
        const pick = <T>(xs: T[]) => xs[rand(xs.length)] as T;
        const candidates: Operation[] = [
          {
            type: "addNode",
            node: { id: pick(ids), type: "abort", reason: "r", name: "", join: "all" },
            index: rand(6),
          },
          { type: "removeNode", id: pick(nodes) },
          { type: "moveNode", id: pick(nodes), position: { x: rand(100), y: rand(100) } },
          { type: "addEdge", edge: fwd(pick(nodes), "done", pick(nodes), `e${rand(5)}`), index: rand(4) },
          { type: "renameNode", id: pick(nodes), newId: pick(ids) },
          { type: "setVariables", variables: [{ key: "v", value: rand(3), description: "" }] },
          { type: "reorder", collection: "nodes", ids: [pick(nodes), pick(nodes)] },
        ];
        try {
          b = applyOperation(b, pick(candidates));
        } catch {
          // an op that does not apply to this random state is simply skipped
        }
      }
      roundTrip(a, b);
      roundTrip(b, a);
    }
  });
});
