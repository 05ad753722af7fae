import { ReactFlowProvider } from "@xyflow/react";
import { renderToStaticMarkup } from "react-dom/server";
import { documentToNodes, type NodeRunState } from "@/components/editor/flow-mapping";
import { NodeViewProvider, type NodeView } from "@/components/editor/nodes/detail-level";
import { nodeTypes } from "@/components/editor/nodes/index";
import { defaultNode, nodeKindRegistry } from "@/lib/workflow/registry";
import { nodeKinds, workflowSchema, type NodeKind, type Workflow } from "@/lib/workflow/schema";
import { workflowTemplates } from "@/lib/workflow/templates";

/**
 * Test helpers of the vocabulary tests (this folder's and the share page's): the text each canvas node
 * draws, and documents to draw — the templates and random documents built from the schema's own parts.
 */

/** The props React Flow hands a node component, for a mapped node at rest (unselected, at the origin). */
export function canvasNodeProps<T extends object>(flow: T) {
  return {
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
}

/** The visible text of every canvas node of `doc`, by node id, as the canvas renders it in `view`. */
export function nodeTexts(doc: Workflow, view: NodeView, run?: ReadonlyMap<string, NodeRunState>): Map<string, string> {
  const out = new Map<string, string>();
  for (const flow of documentToNodes(doc, { run })) {
    const Node = nodeTypes[flow.type];
    const props = canvasNodeProps(flow);
    const html = renderToStaticMarkup(
      <ReactFlowProvider>
        <NodeViewProvider value={view}>
          <Node {...props} />
        </NodeViewProvider>
      </ReactFlowProvider>,
    );
    out.set(
      flow.id,
      html
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    );
  }
  return out;
}

/** A seeded generator (mulberry32). */
function random(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random values for what only the editor shows (a shared graph has none of it): prompts, modes, args, workers. */
function designFacts(kind: NodeKind, r: () => number): Record<string, unknown> {
  switch (kind) {
    case "router":
      return r() < 0.5 ? { mode: "expression" } : { model: { model: "gpt-4o", provider: "openai" } };
    case "tool":
      return { sideEffect: r() < 0.5, args: r() < 0.5 ? { url: "{{inputs.q}}" } : {} };
    case "human":
      return { prompt: "Publish {{inputs.q}}?", fields: [{ key: "note", type: "text" }] };
    case "orchestrator":
      return { workers: ["a0"] };
    case "abort":
      return { reason: "Refused: {{inputs.q}}" };
    case "subflow":
      return { workflowId: "wf_child", version: 2, inputs: { topic: "{{inputs.q}}" } };
    default:
      return {};
  }
}

/**
 * A random valid-shaped document from the schema's own parts: every node kind from the registry's
 * defaults, random names (some empty), joins, models (some with providers), a default model, and
 * random forward edges from start towards the end (so joins get several inputs) plus loop edges.
 */
export function randomWorkflow(seed: number): Workflow {
  const r = random(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const middle = Array.from({ length: 3 + Math.floor(r() * 6) }, (_, i) => ({
    kind: pick(nodeKinds.filter((k) => k !== "start" && k !== "end")),
    id: `n${i}`,
  }));
  const agents = [0, 1].map((i) => ({
    key: `a${i}`,
    name: r() < 0.8 ? `Agent ${i}` : `a${i}`,
    model:
      r() < 0.5
        ? { model: pick(["gpt-4o-mini", "scripted-demo", "llama3.1:8b"]), ...(r() < 0.5 ? { provider: "openai" } : {}) }
        : undefined,
  }));
  const nodes = [
    defaultNode("start", "start"),
    ...middle.map(({ kind, id }) => defaultNode(kind as NodeKind, id)),
    defaultNode("end", "end"),
  ].map((n, i) => ({
    ...n,
    name: r() < 0.25 ? "" : `${n.type} ${i}`,
    join: r() < 0.5 ? ("any" as const) : ("all" as const),
    position: { x: i * 280, y: Math.floor(r() * 3) * 160 },
    ...("agent" in n ? { agent: pick(agents).key } : {}),
    ...designFacts(n.type, r),
  }));
  const edges: unknown[] = [];
  nodes.forEach((n, i) => {
    if (n.type === "end" || n.type === "abort") return;
    const handle = nodeKindRegistry[n.type].outcomes(n as never)[0];
    if (!handle) return;
    for (const j of new Set([i + 1, i + 1 + Math.floor(r() * (nodes.length - i - 1))])) {
      if (j < nodes.length)
        edges.push({ id: `e${i}_${j}`, source: n.id, sourceHandle: handle, target: nodes[j]!.id, kind: "forward" });
    }
    if (i > 1 && r() < 0.3)
      edges.push({
        id: `l${i}`,
        source: n.id,
        sourceHandle: handle,
        target: nodes[1]!.id,
        kind: "loop",
        maxIterations: 1 + Math.floor(r() * 4),
      });
  });
  return workflowSchema.parse({
    name: `random ${seed}`,
    agents,
    nodes,
    edges,
    ...(r() < 0.5 ? { defaultModel: { model: "gpt-4o" } } : {}),
  });
}

export const vocabularyDocuments: [string, Workflow][] = [
  ...workflowTemplates.map((t) => [t.id, t.workflow] as [string, Workflow]),
  ...Array.from({ length: 40 }, (_, i) => [`random ${i}`, randomWorkflow(i + 1)] as [string, Workflow]),
];
