import { ReactFlowProvider } from "@xyflow/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { defaultNode } from "@/lib/workflow/registry";
import { workflowSchema, type WorkflowNode } from "@/lib/workflow/schema";
import { documentToNodes } from "../flow-mapping";
import { AgentNode } from "./agent-node";

/** Server markup of an agent node on the canvas. */
function renderAgent(node: WorkflowNode): string {
  const doc = workflowSchema.parse({
    agents: [{ key: "agent", name: "Agent" }],
    nodes: [{ id: "start", type: "start" }, node],
  });
  const flow = documentToNodes(doc).find((n) => n.id === node.id)!;
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
      <AgentNode {...props} />
    </ReactFlowProvider>,
  );
}

describe("the error policy on the canvas", () => {
  it("badges a node's timeout, retries and error branch, and gives it an error handle", () => {
    const html = renderAgent({
      ...defaultNode("agent", "a1"),
      timeoutMs: 20_000,
      onError: {
        retry: { maxAttempts: 3, initialDelayMs: 1_000, backoffFactor: 2, on: ["timeout"] },
        onExhausted: "error_branch",
      },
    } as WorkflowNode);
    expect(html).toContain(
      'title="Each try times out after 20 s. Retries up to 2× on timeout, first after 1 s, ×2 each time. Then follows its error branch, carrying the error."',
    );
    expect(html).toMatch(/data-testid="error-policy-badge"[^>]*>⏱20 s ↻2 → error</);
    expect(html).toContain('data-handleid="error"');
  });

  it("draws no badge and no error handle for a node without a policy", () => {
    const html = renderAgent(defaultNode("agent", "a1"));
    expect(html).not.toContain("error-policy-badge");
    expect(html).not.toContain('data-handleid="error"');
  });
});
