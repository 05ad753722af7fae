import { describe, expect, it } from "vitest";
import {
  applyOperation,
  applyOperations,
  OperationError,
  operationSchema,
  tryApplyOperations,
  type Operation,
} from "./operations";
import { agent, doc, fwd, loop } from "./testing";

const base = () =>
  doc({
    inputs: [{ key: "topic" }],
    agents: [agent("writer"), agent("critic")],
    nodes: [
      { id: "start", type: "start" },
      { id: "draft", type: "agent", agent: "writer", task: "Write {{inputs.topic}}" },
      {
        id: "review",
        type: "agent",
        agent: "critic",
        task: "Review {{nodes.draft.output}}",
        branches: [{ id: "ok" }, { id: "again" }],
      },
      {
        id: "route",
        type: "router",
        mode: "expression",
        branches: [
          { id: "a", expression: 'nodes.draft.output contains "x"' },
          { id: "b", default: true },
        ],
      },
      { id: "end", type: "end", outputs: { text: "{{ nodes.draft.output }}" } },
    ],
    edges: [
      fwd("start", "next", "draft"),
      fwd("draft", "done", "review"),
      fwd("review", "ok", "route"),
      loop("review", "again", "draft"),
      fwd("route", "a", "end"),
      fwd("route", "b", "end"),
    ],
  });

describe("applyOperation", () => {
  it("is immutable", () => {
    const d = base();
    const snapshot = JSON.stringify(d);
    applyOperations(d, [
      { type: "moveNode", id: "draft", position: { x: 1, y: 2 } },
      { type: "updateNode", id: "draft", patch: { task: "x" } },
      { type: "removeNode", id: "review" },
      { type: "renameNode", id: "draft", newId: "write" },
    ]);
    expect(JSON.stringify(d)).toBe(snapshot);
  });

  it("adds, updates and removes nodes; removing a node removes its edges", () => {
    let d = applyOperation(base(), {
      type: "addNode",
      node: { id: "extra", type: "abort", reason: "no", name: "", join: "all" },
      index: 1,
    });
    expect(d.nodes[1]?.id).toBe("extra");
    d = applyOperation(d, { type: "updateNode", id: "draft", patch: { task: "New", maxTurnsPerVisit: 2 } });
    expect(d.nodes.find((n) => n.id === "draft")).toMatchObject({ task: "New", maxTurnsPerVisit: 2 });
    d = applyOperation(d, { type: "updateNode", id: "draft", patch: {}, unset: ["maxTurnsPerVisit"] });
    expect(d.nodes.find((n) => n.id === "draft")).not.toHaveProperty("maxTurnsPerVisit");
    d = applyOperation(d, { type: "removeNode", id: "review" });
    expect(d.edges.map((e) => e.id)).toEqual(["start-next-draft", "route-a-end", "route-b-end"]);
  });

  it("changes a node's kind through updateNode when the result parses", () => {
    const d = applyOperation(base(), {
      type: "updateNode",
      id: "draft",
      patch: { type: "abort", reason: "stop" },
      unset: ["agent", "task", "branches"],
    });
    expect(d.nodes.find((n) => n.id === "draft")).toEqual({
      id: "draft",
      type: "abort",
      reason: "stop",
      name: "",
      join: "all",
    });
  });

  it("renames a node everywhere it is referenced", () => {
    const d = applyOperation(base(), { type: "renameNode", id: "draft", newId: "write" });
    expect(d.nodes.map((n) => n.id)).toEqual(["start", "write", "review", "route", "end"]);
    expect(d.edges.filter((e) => e.source === "write" || e.target === "write").length).toBe(3);
    const review = d.nodes.find((n) => n.id === "review");
    const route = d.nodes.find((n) => n.id === "route");
    const end = d.nodes.find((n) => n.id === "end");
    expect(review?.type === "agent" && review.task).toBe("Review {{nodes.write.output}}");
    expect(route?.type === "router" && route.branches[0]?.expression).toBe('nodes.write.output contains "x"');
    expect(end?.type === "end" && end.outputs.text).toBe("{{nodes.write.output}}");
  });

  it("manages edges and agents", () => {
    let d = applyOperation(base(), { type: "addEdge", edge: fwd("draft", "done", "end", "shortcut") });
    d = applyOperation(d, { type: "updateEdge", id: "shortcut", patch: { label: "skip" } });
    expect(d.edges.at(-1)).toMatchObject({ id: "shortcut", label: "skip" });
    d = applyOperation(d, { type: "removeEdge", id: "shortcut" });
    d = applyOperation(d, {
      type: "addAgent",
      agent: { key: "editor", name: "Editor", description: "", instructions: "", tools: [] },
    });
    d = applyOperation(d, { type: "updateAgent", key: "editor", patch: { model: { model: "m" } } });
    expect(d.agents.at(-1)?.model).toEqual({ model: "m" });
    d = applyOperation(d, { type: "removeAgent", key: "editor" });
    expect(d.agents.map((a) => a.key)).toEqual(["writer", "critic"]);
  });

  it("sets document-level fields and reorders", () => {
    let d = applyOperations(base(), [
      { type: "setInfo", name: "N", defaultModel: { model: "m" } },
      { type: "setInputs", inputs: [] },
      { type: "setOutputs", outputs: [{ key: "text", type: "text", description: "", required: true }] },
      { type: "setVariables", variables: [{ key: "t", value: 1, description: "" }] },
      { type: "setLimits", limits: { maxSteps: 5, maxIterationsPerLoop: 2, runTimeoutMs: 1000, maxTurnsPerVisit: 3 } },
      { type: "reorder", collection: "nodes", ids: ["end", "ghost", "start"] },
    ]);
    expect(d).toMatchObject({ name: "N", defaultModel: { model: "m" }, inputs: [], limits: { maxSteps: 5 } });
    expect(d.nodes.map((n) => n.id)).toEqual(["end", "start", "draft", "review", "route"]);
    d = applyOperation(d, { type: "setInfo", defaultModel: null });
    expect(d).not.toHaveProperty("defaultModel");
  });

  it("refuses invalid operations with clear errors", () => {
    const cases: [Operation, string, string][] = [
      [{ type: "updateNode", id: "ghost", patch: {} }, "unknown_node", 'There is no node "ghost".'],
      [
        { type: "addNode", node: { id: "draft", type: "start", name: "", join: "all" } },
        "duplicate_node",
        'A node "draft" already exists.',
      ],
      [{ type: "renameNode", id: "draft", newId: "review" }, "duplicate_node", 'A node "review" already exists.'],
      [
        { type: "updateNode", id: "draft", patch: { id: "x" } },
        "invalid_patch",
        'Use renameNode to change the id of node "draft".',
      ],
      [
        { type: "updateNode", id: "draft", patch: { join: "some" } },
        "invalid_patch",
        'The change to node "draft" is invalid: join: Invalid option: expected one of "all"|"any"',
      ],
      [
        { type: "addEdge", edge: fwd("draft", "done", "nowhere") },
        "unknown_endpoint",
        'Edge "draft-done-nowhere" refers to node "nowhere", which does not exist.',
      ],
      [
        { type: "addEdge", edge: fwd("start", "next", "draft") },
        "duplicate_edge",
        'An edge "start-next-draft" already exists.',
      ],
      [{ type: "removeEdge", id: "nope" }, "unknown_edge", 'There is no edge "nope".'],
      [
        { type: "updateEdge", id: "start-next-draft", patch: { target: "ghost" } },
        "unknown_endpoint",
        'Edge "start-next-draft" refers to node "ghost", which does not exist.',
      ],
      [
        { type: "addAgent", agent: { key: "writer", name: "W", description: "", instructions: "", tools: [] } },
        "duplicate_agent",
        'An agent "writer" already exists.',
      ],
      [{ type: "removeAgent", key: "nobody" }, "unknown_agent", 'There is no agent "nobody".'],
      [
        { type: "updateAgent", key: "writer", patch: { key: "w2" } },
        "invalid_patch",
        'The key of agent "writer" cannot change.',
      ],
    ];
    for (const [op, code, message] of cases) {
      const error = (() => {
        try {
          applyOperation(base(), op);
        } catch (e) {
          return e;
        }
      })();
      expect(error, op.type).toBeInstanceOf(OperationError);
      expect((error as OperationError).code).toBe(code);
      expect((error as OperationError).message).toBe(message);
    }
  });

  it("reports the failing operation's index in a list", () => {
    const result = tryApplyOperations(base(), [
      { type: "moveNode", id: "draft", position: { x: 0, y: 0 } },
      { type: "removeNode", id: "ghost" },
    ]);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.index).toBe(1);
      expect(result.error.message).toBe('Operation 2 (removeNode): There is no node "ghost".');
    }
  });

  it("parses operations from untrusted JSON with the zod union", () => {
    expect(operationSchema.safeParse({ type: "moveNode", id: "a", position: { x: 1, y: 2 } }).success).toBe(true);
    expect(operationSchema.safeParse({ type: "renameNode", id: "a", newId: "1bad" }).success).toBe(false);
    expect(operationSchema.safeParse({ type: "dropTable" }).success).toBe(false);
  });
});
