import { ReactFlowProvider } from "@xyflow/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { defaultNode } from "@/lib/workflow/registry";
import { nodeKinds, workflowSchema, type NodeOf } from "@/lib/workflow/schema";
import { documentToNodes } from "../flow-mapping";
import { HumanNode, promptPreview } from "./human-node";
import { nodeTypes } from "./index";

/** Server markup of a canvas node component (React Flow's store comes from the provider). */
function renderNode(node: NodeOf<"human">): string {
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
      <HumanNode {...props} />
    </ReactFlowProvider>,
  );
}

describe("canvas node components", () => {
  it("has one component per node kind, human review included", () => {
    expect(Object.keys(nodeTypes).sort()).toEqual([...nodeKinds].sort());
    expect(nodeTypes.human).toBe(HumanNode);
  });
});

describe("HumanNode", () => {
  it("shows its kind, name, a preview of the prompt, its fields and one labelled handle per branch", () => {
    const html = renderNode({
      ...defaultNode("human", "review"),
      name: "Editor sign-off",
      prompt: "Publish this draft?\n{{nodes.write.output}}",
      branches: [
        { id: "approve", label: "Approve", condition: "" },
        { id: "changes", label: "Ask for changes", condition: "" },
        { id: "drop", label: "", condition: "" },
      ],
      fields: [{ key: "notes", type: "text", description: "", required: false }],
    });
    expect(html).toContain('data-kind="human"');
    expect(html).toContain("Human review");
    expect(html).toContain("Editor sign-off");
    expect(html).toContain("Publish this draft? {{nodes.write.output}}");
    expect(html).toContain("notes");
    expect(html.match(/data-handleid="(approve|changes|drop)"/g)).toEqual([
      'data-handleid="approve"',
      'data-handleid="changes"',
      'data-handleid="drop"',
    ]);
    expect(html).toContain("Ask for changes");
    expect(html).toMatch(/>drop<div/); // an unlabelled branch shows its id
  });

  it("says so when there is no prompt yet and offers the default approve/reject", () => {
    const html = renderNode(defaultNode("human", "review"));
    expect(html).toContain("nothing yet");
    expect(html).toContain('data-handleid="approve"');
    expect(html).toContain('data-handleid="reject"');
  });

  it("cuts a long prompt to one short line", () => {
    expect(promptPreview("  Approve\n\nthis?  ")).toBe("Approve this?");
    const long = promptPreview("word ".repeat(50));
    expect(long.length).toBe(80);
    expect(long.endsWith("…")).toBe(true);
  });
});
