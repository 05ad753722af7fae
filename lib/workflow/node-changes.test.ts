import { describe, expect, it } from "vitest";
import { changedNodes } from "./node-changes";
import { workflowSchema, type Workflow, type WorkflowInput } from "./schema";

const base: WorkflowInput = {
  inputs: [{ key: "topic" }],
  variables: [
    { key: "tone", value: "dry" },
    { key: "limit", value: 3 },
  ],
  defaultModel: { model: "m-1" },
  agents: [
    { key: "writer", name: "Writer", instructions: "Write in a {{vars.tone}} tone." },
    { key: "critic", name: "Critic", instructions: "Judge.", model: { model: "m-2" } },
    { key: "helper", name: "Helper", instructions: "Help." },
  ],
  nodes: [
    { id: "start", type: "start" },
    { id: "draft", type: "agent", agent: "writer", task: "Draft {{inputs.topic}}", position: { x: 0, y: 0 } },
    { id: "judge", type: "agent", agent: "critic", task: "Judge {{nodes.draft.output}} within {{vars.limit}}" },
    { id: "boss", type: "orchestrator", agent: "critic", task: "Go", workers: ["helper"] },
    { id: "end", type: "end" },
  ],
  edges: [],
};
const doc = (edit: (d: Workflow) => void = () => undefined): Workflow => {
  const d = workflowSchema.parse(structuredClone(base));
  edit(d);
  return d;
};
const node = (d: Workflow, id: string) => d.nodes.find((n) => n.id === id)!;

describe("changedNodes", () => {
  it("finds nothing between a document and itself moved around and renamed", () => {
    expect(
      changedNodes(
        doc(),
        doc((d) => {
          node(d, "draft").position = { x: 500, y: 90 };
          node(d, "judge").name = "The judge";
        }),
      ),
    ).toEqual([]);
  });

  it("names a node whose own settings changed, or that was removed", () => {
    expect(
      changedNodes(
        doc(),
        doc((d) => {
          const n = node(d, "draft");
          if (n.type === "agent") n.task = "Draft {{inputs.topic}} briefly";
          d.nodes = d.nodes.filter((x) => x.id !== "end");
        }),
      ),
    ).toEqual(["draft", "end"]);
  });

  it("names the nodes running an agent whose spec changed (an orchestrator's workers too)", () => {
    expect(
      changedNodes(
        doc(),
        doc((d) => void (d.agents[0]!.instructions = "Write.")),
      ),
    ).toEqual(["draft"]);
    expect(
      changedNodes(
        doc(),
        doc((d) => void (d.agents[2]!.model = { model: "m-9" })),
      ),
    ).toEqual(["boss"]);
  });

  it("names only the nodes that mention a changed variable, and those using a changed default model", () => {
    expect(
      changedNodes(
        doc(),
        doc((d) => void (d.variables[1]!.value = 5)),
      ),
    ).toEqual(["judge"]);
    expect(
      changedNodes(
        doc(),
        doc((d) => void (d.variables[0]!.value = "warm")),
      ),
    ).toEqual(["draft"]);
    // the writer and the helper name no model: the default is theirs
    expect(
      changedNodes(
        doc(),
        doc((d) => void (d.defaultModel = { model: "m-3" })),
      ),
    ).toEqual(["draft", "boss"]);
  });

  it("names a node whose error policy changed", () => {
    expect(
      changedNodes(
        doc(),
        doc((d) => void (node(d, "judge").onError = { onExhausted: "fallback", fallback: "ok" })),
      ),
    ).toEqual(["judge"]);
  });
});
