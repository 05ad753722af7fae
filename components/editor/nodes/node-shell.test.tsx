import { ReactFlowProvider } from "@xyflow/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { KIND_TERMS } from "@/components/terms/kinds";
import { canvasNodeProps } from "@/components/terms/testing";
import { workflowSchema } from "@/lib/workflow/schema";
import { documentToNodes } from "../flow-mapping";
import { CompactNodesProvider } from "./detail-level";
import { nodeTypes } from "./index";

const doc = workflowSchema.parse({
  nodes: [
    { id: "start", type: "start" },
    { id: "write", type: "agent", name: "Write the draft", agent: "writer" },
    { id: "route", type: "router", name: "Pick a path", branches: [{ id: "a" }, { id: "b" }, { id: "c" }] },
    { id: "end", type: "end" },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "write" },
    { id: "e2", source: "write", sourceHandle: "done", target: "route" },
  ],
  agents: [{ key: "writer", name: "Writer", instructions: "Write." }],
});

/** Server markup of one canvas node at a detail level. */
function markup(id: string, compact: boolean): string {
  const flow = documentToNodes(doc).find((n) => n.id === id)!;
  const Kind = nodeTypes[flow.type as keyof typeof nodeTypes];
  const props = canvasNodeProps(flow);
  return renderToStaticMarkup(
    <ReactFlowProvider>
      <CompactNodesProvider value={compact}>
        <Kind {...props} />
      </CompactNodesProvider>
    </ReactFlowProvider>,
  );
}

const elements = (html: string) => html.match(/<[a-z]+[\s>]/g)?.length ?? 0;
const handles = (html: string) => html.match(/react-flow__handle /g)?.length ?? 0;

describe("compact canvas nodes (a large graph zoomed out)", () => {
  it("are one box in the kind's colours with the title, and the handles: no icon, rows or facts", () => {
    const html = markup("write", true);
    expect(html).toContain("Write the draft");
    expect(html).toContain(KIND_TERMS.agent.tile);
    expect(html).not.toContain("<svg");
    expect(html).not.toContain("<dl");
    expect(handles(html)).toBe(2);
    expect(elements(html)).toBe(1 + handles(html));
  });

  it("keep one handle per outcome, and cost a fraction of the full node's elements", () => {
    const compact = markup("route", true);
    expect(handles(compact)).toBe(1 + 3);
    expect(elements(compact)).toBe(1 + handles(compact));
    const full = markup("route", false);
    expect(full).toContain("<svg");
    expect(elements(full)).toBeGreaterThan(2 * elements(compact));
  });
});
