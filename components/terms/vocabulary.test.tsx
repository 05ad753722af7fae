import { ReactFlowProvider } from "@xyflow/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { describeGroup } from "@/components/designer/proposal";
import { documentToEdges, documentToNodes, type NodeRunState } from "@/components/editor/flow-mapping";
import { NodeViewProvider, type NodeView } from "@/components/editor/nodes/detail-level";
import { nodeTypes } from "@/components/editor/nodes/index";
import { graphToWorkflow } from "@/components/runs/to-props";
import { stepStatuses } from "@/lib/engine/events";
import { sharedGraph } from "@/lib/runs/share-dto";
import { diffGrouped } from "@/lib/workflow/diff";
import { defaultNode, nodeKindRegistry } from "@/lib/workflow/registry";
import { nodeKinds, workflowSchema, type NodeKind, type Workflow } from "@/lib/workflow/schema";
import { workflowTemplates } from "@/lib/workflow/templates";
import { KIND_TERMS } from "./kinds";
import { BADGE_TONE, FILL_CLASS, RING_CLASS, STATUS_TERMS, statusLabel, statusTone } from "./status";
import { joinBadge, nodeTitle } from "./words";

/**
 * The vocabulary test: the words each view draws for the same workflow and run. The run dashboard
 * draws the owner's document, the share page the document rebuilt from the shared graph
 * (lib/runs/share-dto → graphToWorkflow); both must show every node with the same text. The editor
 * and the designer's proposal must name nodes, kinds, joins and outcomes with the same words.
 */

/** The visible text of every canvas node of `doc`, by node id, as the canvas renders it in `view`. */
function nodeTexts(doc: Workflow, view: NodeView, run?: ReadonlyMap<string, NodeRunState>): Map<string, string> {
  const out = new Map<string, string>();
  for (const flow of documentToNodes(doc, { run })) {
    const Node = nodeTypes[flow.type];
    const props = { ...flow, selected: false, dragging: false, zIndex: 0, selectable: true, deletable: true, draggable: true, isConnectable: true, positionAbsoluteX: 0, positionAbsoluteY: 0 };
    const html = renderToStaticMarkup(<ReactFlowProvider><NodeViewProvider value={view}><Node {...props} /></NodeViewProvider></ReactFlowProvider>);
    out.set(flow.id, html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim());
  }
  return out;
}

/** The share page's document for `doc`: through the shared graph, as its page gets it. */
const shared = (doc: Workflow): Workflow => {
  const rebuilt = graphToWorkflow(sharedGraph(doc));
  if (!rebuilt) throw new Error("the shared graph does not rebuild");
  return rebuilt;
};

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
    case "router": return r() < 0.5 ? { mode: "expression" } : { model: { model: "gpt-4o", provider: "openai" } };
    case "tool": return { sideEffect: r() < 0.5, args: r() < 0.5 ? { url: "{{inputs.q}}" } : {} };
    case "human": return { prompt: "Publish {{inputs.q}}?", fields: [{ key: "note", type: "text" }] };
    case "orchestrator": return { workers: ["a0"] };
    case "abort": return { reason: "Refused: {{inputs.q}}" };
    case "subflow": return { workflowId: "wf_child", version: 2, inputs: { topic: "{{inputs.q}}" } };
    default: return {};
  }
}

/**
 * A random valid-shaped document from the schema's own parts: every node kind from the registry's
 * defaults, random names (some empty), joins, models (some with providers), a default model, and
 * random forward edges from start towards the end (so joins get several inputs) plus loop edges.
 */
function randomWorkflow(seed: number): Workflow {
  const r = random(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const middle = Array.from({ length: 3 + Math.floor(r() * 6) }, (_, i) => ({ kind: pick(nodeKinds.filter((k) => k !== "start" && k !== "end")), id: `n${i}` }));
  const agents = [0, 1].map((i) => ({ key: `a${i}`, name: r() < 0.8 ? `Agent ${i}` : `a${i}`, model: r() < 0.5 ? { model: pick(["gpt-4o-mini", "scripted-demo", "llama3.1:8b"]), ...(r() < 0.5 ? { provider: "openai" } : {}) } : undefined }));
  const nodes = [defaultNode("start", "start"), ...middle.map(({ kind, id }) => defaultNode(kind as NodeKind, id)), defaultNode("end", "end")].map((n, i) => ({
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
      if (j < nodes.length) edges.push({ id: `e${i}_${j}`, source: n.id, sourceHandle: handle, target: nodes[j]!.id, kind: "forward" });
    }
    if (i > 1 && r() < 0.3) edges.push({ id: `l${i}`, source: n.id, sourceHandle: handle, target: nodes[1]!.id, kind: "loop", maxIterations: 1 + Math.floor(r() * 4) });
  });
  return workflowSchema.parse({ name: `random ${seed}`, agents, nodes, edges, ...(r() < 0.5 ? { defaultModel: { model: "gpt-4o" } } : {}) });
}

const documents: [string, Workflow][] = [
  ...workflowTemplates.map((t) => [t.id, t.workflow] as [string, Workflow]),
  ...Array.from({ length: 40 }, (_, i) => [`random ${i}`, randomWorkflow(i + 1)] as [string, Workflow]),
];

describe("one vocabulary: the run dashboard and the share page", () => {
  it.each(documents)("%s: every node shows the same text on both pages, with and without a run's statuses", (_, doc) => {
    const run = new Map<string, NodeRunState>(doc.nodes.map((n, i) => [n.id, { status: stepStatuses[i % stepStatuses.length]!, iteration: 1 + (i % 3) }]));
    for (const overlay of [undefined, run]) {
      const dashboard = nodeTexts(doc, "run", overlay);
      const share = nodeTexts(shared(doc), "run", overlay);
      expect(Object.fromEntries(share)).toEqual(Object.fromEntries(dashboard));
    }
  });

  it.each(documents)("%s: edges carry the same labels on both pages", (_, doc) => {
    const labels = (d: Workflow) => Object.fromEntries(documentToEdges(d).map((e) => [e.id, e.label ?? ""]));
    expect(labels(shared(doc))).toEqual(labels(doc));
  });

  it("says the same about a join that starts on any input (the dashboard said \"any of 2\", the share page \"waits 2/2\")", () => {
    const base = workflowTemplates.find((t) => t.id === "majority-vote")!.workflow;
    const doc = { ...base, nodes: base.nodes.map((n) => (n.id === "aggregate" ? { ...n, join: "any" as const } : n)) };
    const badge = joinBadge("any", 3);
    expect(nodeTexts(doc, "run").get("aggregate")).toContain(badge);
    expect(nodeTexts(shared(doc), "run").get("aggregate")).toContain(badge);
    expect(nodeTexts(doc, "design").get("aggregate")).toContain(badge);
  });
});

describe("one vocabulary: the editor and the designer's proposal", () => {
  it.each(documents)("%s: the editor names each node, its kind, join and outcomes as the run views do", (_, doc) => {
    const design = nodeTexts(doc, "design");
    const run = nodeTexts(doc, "run");
    const incoming = new Map<string, number>();
    for (const e of doc.edges) if (e.kind === "forward") incoming.set(e.target, (incoming.get(e.target) ?? 0) + 1);
    for (const node of doc.nodes) {
      const words = [nodeTitle(node), KIND_TERMS[node.type].label, ...(incoming.get(node.id)! > 1 ? [joinBadge(node.join, incoming.get(node.id)!)] : [])];
      for (const w of words) {
        expect(design.get(node.id)).toContain(w);
        expect(run.get(node.id)).toContain(w);
      }
    }
  });

  it.each(documents)("%s: a proposal names its nodes by the titles the canvas draws", (_, doc) => {
    const groups = diffGrouped(workflowSchema.parse({ name: "blank" }), doc);
    for (const g of groups.filter((x) => x.nodeId)) {
      const node = doc.nodes.find((n) => n.id === g.nodeId)!;
      expect(describeGroup(g, { base: workflowSchema.parse({ name: "blank" }), proposal: doc })).toBe(`Add node "${nodeTitle(node)}"`);
    }
  });

  it("names every kind as lib/workflow's registry does", () => {
    for (const kind of nodeKinds) expect(KIND_TERMS[kind].label).toBe(nodeKindRegistry[kind].label);
  });
});

describe("one vocabulary: statuses", () => {
  it("gives every run and step status one word and one colour family, drawn the same way by badge, ring and bar", () => {
    for (const [status, term] of Object.entries(STATUS_TERMS)) {
      expect(statusLabel(status)).toBe(term.label);
      expect(term.label).toBe(status.replace(/_/g, " "));
      const tone = statusTone(status);
      expect(BADGE_TONE[tone]).toBeDefined();
      expect(RING_CLASS[tone]).toBeDefined();
      expect(FILL_CLASS[tone]).toBeDefined();
    }
    for (const status of stepStatuses) expect(STATUS_TERMS[status]).toBeDefined();
  });

  it("shows a node's run status on the canvas in the status's word", () => {
    const doc = workflowTemplates[0]!.workflow;
    for (const status of stepStatuses) {
      const texts = nodeTexts(doc, "run", new Map([[doc.nodes[1]!.id, { status, iteration: 1 }]]));
      expect(texts.get(doc.nodes[1]!.id)).toContain(statusLabel(status));
    }
  });
});
