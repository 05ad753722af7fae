import { describe, expect, it } from "vitest";
import { readDesignAnswer, readEditAnswer } from "./read";

describe("reading answers leniently", () => {
  it("reads strict mode's nulls and {key, value} lists, aliases, numbers as text and edges written as arrows", () => {
    const read = readDesignAnswer({
      profile: {
        summary: "s",
        inputs: ["topic", { name: "tone", type: "prose" }],
        outputs: [{ key: "out" }],
        patterns: null,
        agents: [{ key: "w", role: null, instructions: "Write." }],
      },
      design: {
        name: null,
        nodes: [
          { id: "start", type: "start" },
          {
            id: 7,
            kind: "agent",
            agent: { key: "w" },
            task: "t",
            branches: ["ok", { name: "redo", when: "bad" }],
            outputs: null,
          },
          { id: "end", kind: "end", outputs: [{ key: "out", value: "{{nodes.7.output}}" }] },
        ],
        edges: [
          "start -> 7",
          "7.ok -> end",
          { source: "7", target: "7", sourceHandle: "redo", kind: "loop", max_iterations: "2" },
          42,
        ],
      },
    });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.answer.profile.inputs).toEqual([{ key: "topic" }, { key: "tone" }]);
    expect(read.answer.profile.agents[0]).toEqual({ key: "w", role: "w", instructions: "Write." });
    expect(read.answer.design.nodes[1]).toEqual({
      id: "7",
      kind: "agent",
      agent: "w",
      task: "t",
      branches: [{ id: "ok" }, { id: "redo", condition: "bad" }],
    });
    expect(read.answer.design.nodes[2]!.outputs).toEqual({ out: "{{nodes.7.output}}" });
    expect(read.answer.design.edges).toEqual([
      { from: "start", to: "7" },
      { from: "7", branch: "ok", to: "end" },
      { from: "7", to: "7", branch: "redo", loop: true, maxIterations: 2 },
    ]);
    expect(read.answer.design.name).toBe("s");
  });

  it("reads a bare design, and refuses an answer with nothing to build", () => {
    const bare = readDesignAnswer({ nodes: [{ id: "a", kind: "agent" }], edges: [] });
    expect(bare.ok && bare.answer.design.nodes).toHaveLength(1);
    expect(readDesignAnswer({ answer: 42 })).toMatchObject({ ok: false });
    expect(readDesignAnswer({ profile: { agents: [] }, design: { nodes: [] } })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/nothing to build/),
    });
  });

  it("reads edits by near op names, inline fields and a bare list, skipping (and reporting) what names no operation", () => {
    const read = readEditAnswer([
      { op: "delete_node", node: "x" },
      { op: "add_nodes", id: "n", kind: "agent", agent: "a", task: "t" },
      { op: "update_agent", key: "a", instructions: "New." },
      { op: "teleport" },
      { op: "add_edge", edge: "a -> b" },
    ]);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.answer.operations).toEqual([
      { op: "remove_node", id: "x" },
      { op: "add_node", node: { id: "n", kind: "agent", agent: "a", task: "t" } },
      { op: "update_agent", key: "a", set: { instructions: "New." } },
      { op: "add_edge", edge: { from: "a", to: "b" } },
    ]);
    expect(read.fixes.map((f) => f.repair)).toEqual(["operation_fixed", "operation_fixed", "operation_dropped"]);
  });
});
