import { KIND_TERMS } from "@/components/terms/kinds";
import { ReactFlowProvider } from "@xyflow/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { defaultNode } from "@/lib/workflow/registry";
import { workflowSchema, type NodeOf } from "@/lib/workflow/schema";
import { documentToNodes } from "../flow-mapping";
import type { SubflowTargets } from "../subflow-targets";
import { SubflowTargetsProvider } from "../subflow-targets-context";
import { nodeTypes } from "./index";
import { SubflowNode, subflowLabel } from "./subflow-node";

const targets: SubflowTargets = {
  currentId: "wf_parent",
  targets: [
    {
      id: "wf_child",
      name: "Summarise",
      version: 2,
      inputs: [{ key: "topic", type: "string", required: true, description: "" }],
      outputs: [{ key: "summary" }],
    },
    { id: "wf_parent", name: "Parent", version: null, inputs: [], outputs: [] },
  ],
};

/** Server markup of the canvas node, inside the editor's subflow targets when given. */
function renderNode(node: NodeOf<"subflow">, subflows?: SubflowTargets): string {
  const doc = workflowSchema.parse({ nodes: [{ id: "start", type: "start" }, node] });
  const flow = documentToNodes(doc).find((n) => n.id === node.id);
  if (!flow) throw new Error("not mapped");
  const props = {
    ...flow,
    selected: false,
    dragging: false,
    zIndex: 0,
    selectable: true,
    deletable: true,
    draggable: true,
    isConnectable: true,
    positionAbsoluteX: 0,
    positionAbsoluteY: 0,
  };
  return renderToStaticMarkup(
    <ReactFlowProvider>
      <SubflowTargetsProvider value={subflows}>
        <SubflowNode {...props} />
      </SubflowTargetsProvider>
    </ReactFlowProvider>,
  );
}

describe("SubflowNode", () => {
  it("is the canvas component of the subflow kind", () => {
    expect(nodeTypes.subflow).toBe(SubflowNode);
  });

  it("shows its kind, the chosen workflow's name, the pinned version, the mapped input keys and one handle, done", () => {
    const html = renderNode(
      {
        ...defaultNode("subflow", "sub"),
        name: "Summary",
        workflowId: "wf_child",
        version: 2,
        inputs: { topic: "{{inputs.topic}}", tone: "dry" },
      },
      targets,
    );
    expect(html).toContain('data-kind="subflow"');
    expect(html).toContain(KIND_TERMS.subflow.tile);
    expect(html).toContain(">Subflow<");
    expect(html).toContain("Summary");
    expect(html).toMatch(/data-testid="node-subflow-workflow">Summarise</);
    expect(html).toMatch(/data-testid="node-subflow-version">v2 \(pinned\)</);
    expect(html).toMatch(/data-testid="node-subflow-inputs">topic, tone</);
    expect(html.match(/data-handleid="[a-z]+"/g)).toEqual(['data-handleid="in"', 'data-handleid="done"']); // the input, then the one outcome
  });

  it("asks for a workflow until one is chosen; no version line without a pin; no inputs says none", () => {
    const html = renderNode(defaultNode("subflow", "sub"), targets);
    expect(html).toMatch(/data-testid="node-subflow-workflow">Choose a workflow</);
    expect(html).not.toContain("node-subflow-version");
    expect(html).toMatch(/data-testid="node-subflow-inputs">none</);
  });

  it("says what it knows: a missing workflow in the editor, nothing about names outside it (the run page)", () => {
    const node = { ...defaultNode("subflow", "sub"), workflowId: "wf_gone" };
    expect(subflowLabel(node, targets)).toBe("missing workflow");
    expect(subflowLabel({ ...node, workflowId: "wf_parent" }, targets)).toBe("Parent");
    expect(subflowLabel(node, undefined)).toBe("another workflow");
    expect(subflowLabel({ ...node, workflowId: "" }, undefined)).toBe("another workflow");
    expect(renderNode(node)).toMatch(/data-testid="node-subflow-workflow">another workflow</);
    // the owner's run page knows the workflows its steps started, and only those
    const started = {
      partial: true,
      targets: [{ id: "wf_child", name: "Child", version: null, inputs: [], outputs: [] }],
    };
    expect(subflowLabel({ ...node, workflowId: "wf_child" }, started)).toBe("Child");
    expect(subflowLabel(node, started)).toBe("another workflow");
    expect(subflowLabel({ ...node, workflowId: "" }, started)).toBe("another workflow");
  });
});
