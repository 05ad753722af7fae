import { describe, expect, it } from "vitest";
import { workflowSchema } from "@/lib/workflow/schema";
import { insertSuggestion, openTagAt, templateSuggestions } from "./template-suggestions";

const doc = workflowSchema.parse({
  inputs: [{ key: "topic" }],
  variables: [{ key: "tone", value: "dry" }],
  agents: [{ key: "a", name: "A" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "research", type: "agent", agent: "a" },
    { id: "outline", type: "agent", agent: "a" },
    { id: "evaluate", type: "agent", agent: "a", branches: [{ id: "ok" }, { id: "revise" }] },
    { id: "side", type: "agent", agent: "a" },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "research" },
    { id: "e2", source: "research", sourceHandle: "done", target: "outline" },
    { id: "e3", source: "outline", sourceHandle: "done", target: "evaluate" },
    { id: "l", source: "evaluate", sourceHandle: "revise", target: "outline", kind: "loop", maxIterations: 3 },
    { id: "e4", source: "start", sourceHandle: "next", target: "side" },
  ],
});

describe("templateSuggestions", () => {
  it("offers inputs, variables, upstream nodes only, and feedback where a loop re-enters", () => {
    const refs = templateSuggestions(doc, "outline").map((s) => s.ref);
    expect(refs).toEqual(["inputs.topic", "vars.tone", "nodes.research.output", "feedback"]);
    expect(templateSuggestions(doc, "evaluate").map((s) => s.ref)).toContain("nodes.outline.output");
    expect(templateSuggestions(doc, "evaluate").map((s) => s.ref)).not.toContain("nodes.side.output");
  });
});

describe("templateSuggestions after a human review", () => {
  const reviewed = workflowSchema.parse({
    agents: [{ key: "a", name: "A" }],
    nodes: [
      { id: "start", type: "start" },
      { id: "draft", type: "agent", agent: "a" },
      {
        id: "review",
        type: "human",
        fields: [{ key: "note", type: "text" }],
        branches: [{ id: "ok" }, { id: "again" }],
      },
      { id: "polish", type: "agent", agent: "a" },
    ],
    edges: [
      { id: "e1", source: "start", sourceHandle: "next", target: "draft" },
      { id: "e2", source: "draft", sourceHandle: "done", target: "review" },
      { id: "e3", source: "review", sourceHandle: "ok", target: "polish" },
      { id: "l", source: "review", sourceHandle: "again", target: "draft", kind: "loop", maxIterations: 3 },
    ],
  });
  it("offers the answer's choice, each field's value and the comment, downstream and as the loop's feedback", () => {
    expect(templateSuggestions(reviewed, "polish").map((s) => s.ref)).toEqual([
      "nodes.draft.output",
      "nodes.review.output",
      "nodes.review.output.choice",
      "nodes.review.output.values.note",
      "nodes.review.output.comment",
    ]);
    expect(templateSuggestions(reviewed, "draft").map((s) => s.ref)).toEqual([
      "feedback",
      "feedback.choice",
      "feedback.values.note",
      "feedback.comment",
    ]);
  });
});

describe("templateSuggestions after a subflow", () => {
  const withSubflow = workflowSchema.parse({
    inputs: [{ key: "topic" }],
    agents: [{ key: "a", name: "A" }],
    nodes: [
      { id: "start", type: "start" },
      { id: "sub", type: "subflow", name: "Summary", workflowId: "wf_s", inputs: { topic: "{{inputs.topic}}" } },
      { id: "check", type: "agent", agent: "a", branches: [{ id: "ok" }, { id: "again" }] },
    ],
    edges: [
      { id: "e1", source: "start", sourceHandle: "next", target: "sub" },
      { id: "e2", source: "sub", sourceHandle: "done", target: "check" },
    ],
  });
  const subflows = {
    targets: [
      { id: "wf_s", name: "Summarise", version: 1, inputs: [], outputs: [{ key: "summary" }, { key: "title" }] },
    ],
  };

  it("offers the output and each declared output of the workflow it runs, downstream", () => {
    expect(templateSuggestions(withSubflow, "check", subflows).map((s) => s.ref)).toEqual([
      "inputs.topic",
      "nodes.sub.output",
      "nodes.sub.output.summary",
      "nodes.sub.output.title",
    ]);
    expect(
      templateSuggestions(withSubflow, "check", subflows).find((s) => s.ref === "nodes.sub.output.summary")?.detail,
    ).toBe("summary from Summarise (Summary)");
  });

  it("a subflow pinned to an older version offers that version's outputs", () => {
    const pinned = {
      ...withSubflow,
      nodes: withSubflow.nodes.map((n) => (n.type === "subflow" ? { ...n, version: 1 } : n)),
    };
    const history = {
      targets: [
        {
          ...subflows.targets[0]!,
          version: 2,
          history: [
            { from: 1, inputs: [], outputs: [{ key: "gist" }] },
            { from: 2, inputs: [], outputs: [{ key: "summary" }, { key: "title" }] },
          ],
        },
      ],
    };
    expect(templateSuggestions(pinned, "check", history).map((s) => s.ref)).toEqual([
      "inputs.topic",
      "nodes.sub.output",
      "nodes.sub.output.gist",
    ]);
    expect(templateSuggestions(withSubflow, "check", history).map((s) => s.ref)).toContain("nodes.sub.output.title");
  });

  it("offers only the whole output when the workflow is not known (or not chosen)", () => {
    expect(templateSuggestions(withSubflow, "check").map((s) => s.ref)).toEqual(["inputs.topic", "nodes.sub.output"]);
    expect(templateSuggestions(withSubflow, "check", { targets: [] }).map((s) => s.ref)).toEqual([
      "inputs.topic",
      "nodes.sub.output",
    ]);
    const unchosen = {
      ...withSubflow,
      nodes: withSubflow.nodes.map((n) => (n.type === "subflow" ? { ...n, workflowId: "" } : n)),
    };
    expect(templateSuggestions(unchosen, "check", subflows).map((s) => s.ref)).toEqual([
      "inputs.topic",
      "nodes.sub.output",
    ]);
  });
});

describe("openTagAt / insertSuggestion", () => {
  it("finds the partial ref after an unclosed {{ and completes it", () => {
    expect(openTagAt("Write on {{inp", 14)).toEqual({ start: 9, partial: "inp" });
    expect(openTagAt("done {{x}} and", 14)).toBeNull();
    expect(insertSuggestion("Write on {{inp", 14, "inputs.topic")).toEqual({
      text: "Write on {{inputs.topic}}",
      caret: 25,
    });
    expect(insertSuggestion("a {{in}} b", 6, "inputs.x").text).toBe("a {{inputs.x}} b");
  });
});
