import type { Edge as RFEdge, Node as RFNode, XYPosition } from "@xyflow/react";
import { loopLabel } from "@/components/terms/words";
import type { StepStatus } from "@/lib/engine/events";
import {
  outcomesOf,
  type AgentSpec,
  type Edge,
  type NodeKind,
  type Workflow,
  type WorkflowNode,
} from "@/lib/workflow/schema";

/**
 * Workflow document ⇄ React Flow nodes/edges. The document (lib/workflow) is the only graph model;
 * these React Flow objects are a throw-away view rebuilt from it. Only ids, positions and the
 * document's own node/edge objects travel back (`flowToDocument`), never React Flow internals
 * (measured sizes, selection, z-index...).
 */

/** One output handle of a node: an outcome id and what to print next to it. */
export type OutcomeHandle = { id: string; label: string };

/** Overlay shown on a node while a run is watched (its latest step's status and loop iteration). */
export type NodeRunState = {
  status: StepStatus;
  iteration: number;
  /**
   * Every status the node went through, in event order (the editor's live overlay records it from the
   * replayed event stream, so a start and finish that reach the page together are both kept).
   */
  history?: readonly NodeRunState["status"][];
  /** A map node: how far its items are (of its latest visit). */
  items?: MapProgress;
  /** While its step's model writes: the "now writing" line (terms `nowWriting`; live text, never stored). */
  writing?: string;
};

/** A map's items in a run: how many there are, finished, failed and running. */
export type MapProgress = { total: number; succeeded: number; failed: number; running: number };

/** What a canvas node component receives. `node` is the document's node object, by reference. */
export type FlowNodeData = {
  node: WorkflowNode;
  /** The agent spec an agent/orchestrator node points at (undefined when missing or not an agent). */
  agent?: AgentSpec;
  /** The workflow default model, shown when an agent names none. */
  defaultModel?: string;
  handles: OutcomeHandle[];
  /** Number of incoming forward edges: > 1 makes the node a join. */
  incoming: number;
  /** Validation messages on this node (empty when valid). */
  issues: string[];
  run?: NodeRunState;
  /** Version diff highlight (history panel): how this node differs from the compared version. */
  diff?: "added" | "changed" | "removed";
};

/** The canvas node type is the workflow node kind, so `nodeTypes` is a Record<NodeKind, …>. */
export type FlowNode = RFNode<FlowNodeData, NodeKind>;

export type FlowEdgeData = {
  edge: Edge;
  issues: string[];
  diff?: "added" | "changed" | "removed";
  /** Loop edges: how many shorter loops under the same stretch of canvas this one swings below (0: the innermost). */
  lane?: number;
};
/** Forward edges draw as "forward", loop edges as "loop" (dashed, curved back, "≤ N"). */
export type FlowEdge = RFEdge<FlowEdgeData, "forward" | "loop"> & { type: "forward" | "loop"; data: FlowEdgeData };

/** The single input handle id every non-start node exposes. */
export const TARGET_HANDLE = "in";

/** Grid used for nodes that have no stored position yet (auto-layout replaces it). */
const FALLBACK_GAP = { x: 260, y: 140 };

/** Position of a node: the stored one, or a grid slot from its index (never persisted unless moved). */
export function positionOf(node: WorkflowNode, index: number): XYPosition {
  return node.position ?? { x: (index % 6) * FALLBACK_GAP.x, y: Math.floor(index / 6) * FALLBACK_GAP.y };
}

/**
 * Outcome handles with readable labels: branch labels for kinds with branches (agent, router, human),
 * fixed names otherwise, and the `error` handle of a node whose error policy takes its error branch.
 */
export function outcomeHandles(node: WorkflowNode): OutcomeHandle[] {
  const labels = new Map("branches" in node ? node.branches.map((b) => [b.id, b.label || b.id] as const) : []);
  return outcomesOf(node).map((id) => ({ id, label: labels.get(id) ?? id }));
}

/** Label drawn on an edge: the loop cap for loop edges (components/terms loopLabel), the edge label otherwise. */
export function edgeLabel(edge: Edge): string | undefined {
  if (edge.kind === "loop") return loopLabel(edge.maxIterations);
  return edge.label;
}

/**
 * Lanes of the loop edges: loops are drawn swinging under the nodes they span, and a loop whose span
 * overlaps a shorter one's swings one lane lower, so nested or overlapping loops never share a line
 * or a label spot. Spans come from the document's positions (a drag re-lanes on drop).
 */
export function loopLanes(doc: Workflow): Map<string, number> {
  const x = new Map(doc.nodes.map((n, i) => [n.id, positionOf(n, i).x]));
  const spans = doc.edges
    .filter((e) => e.kind === "loop")
    .map((e) => {
      const a = x.get(e.source) ?? 0,
        b = x.get(e.target) ?? 0;
      return { id: e.id, lo: Math.min(a, b), hi: Math.max(a, b) };
    })
    .sort((p, q) => p.hi - p.lo - (q.hi - q.lo) || p.lo - q.lo);
  const lanes = new Map<string, number>();
  spans.forEach((s, i) => {
    const below = spans
      .slice(0, i)
      .filter((o) => o.lo <= s.hi && s.lo <= o.hi)
      .map((o) => lanes.get(o.id)! + 1);
    lanes.set(s.id, Math.max(0, ...below));
  });
  return lanes;
}

/** Overlays keyed by element id; both optional. */
export type FlowOverlay = {
  issues?: ReadonlyMap<string, string[]>;
  run?: ReadonlyMap<string, NodeRunState>;
  diff?: ReadonlyMap<string, "added" | "changed" | "removed">;
};

const NO_ISSUES: string[] = [];

/** Builds the React Flow nodes of a document. */
export function documentToNodes(doc: Workflow, overlay: FlowOverlay = {}): FlowNode[] {
  const incoming = new Map<string, number>();
  for (const e of doc.edges) if (e.kind === "forward") incoming.set(e.target, (incoming.get(e.target) ?? 0) + 1);
  const agents = new Map(doc.agents.map((a) => [a.key, a]));
  const defaultModel = doc.defaultModel?.model;
  return doc.nodes.map((node, index) => {
    const agent =
      node.type === "agent" || node.type === "orchestrator"
        ? agents.get(node.agent)
        : node.type === "map" && node.body.type === "agent"
          ? agents.get(node.body.agent)
          : undefined;
    const data: FlowNodeData = {
      node,
      agent,
      defaultModel,
      handles: outcomeHandles(node),
      incoming: incoming.get(node.id) ?? 0,
      issues: overlay.issues?.get(node.id) ?? NO_ISSUES,
      run: overlay.run?.get(node.id),
      diff: overlay.diff?.get(node.id),
    };
    return {
      id: node.id,
      type: node.type,
      position: positionOf(node, index),
      data,
      deletable: node.type !== "start",
    };
  });
}

/** Builds the React Flow edges of a document. */
export function documentToEdges(doc: Workflow, overlay: FlowOverlay = {}): FlowEdge[] {
  const lanes = loopLanes(doc);
  return doc.edges.map((edge) => ({
    id: edge.id,
    type: edge.kind,
    source: edge.source,
    sourceHandle: edge.sourceHandle,
    target: edge.target,
    targetHandle: TARGET_HANDLE,
    label: edgeLabel(edge),
    data: {
      edge,
      issues: overlay.issues?.get(edge.id) ?? NO_ISSUES,
      diff: overlay.diff?.get(edge.id),
      lane: lanes.get(edge.id),
    },
  }));
}

/** Document → React Flow view. */
export function documentToFlow(doc: Workflow, overlay: FlowOverlay = {}): { nodes: FlowNode[]; edges: FlowEdge[] } {
  return { nodes: documentToNodes(doc, overlay), edges: documentToEdges(doc, overlay) };
}

const samePosition = (a: XYPosition | undefined, b: XYPosition) => a !== undefined && a.x === b.x && a.y === b.y;

/**
 * React Flow view → document: node and edge objects come back from `data`, with the canvas position
 * and the canvas endpoints; everything else (inputs, agents, limits...) comes from `base`.
 * Unchanged nodes keep their object identity, so a diff sees only what moved.
 */
export function flowToDocument(base: Workflow, nodes: readonly FlowNode[], edges: readonly FlowEdge[]): Workflow {
  return {
    ...base,
    nodes: nodes.map((n) => {
      const position = { x: n.position.x, y: n.position.y };
      return samePosition(n.data.node.position, position) ? n.data.node : { ...n.data.node, position };
    }),
    edges: edges.map((e) => {
      const edge = e.data?.edge;
      if (!edge) throw new Error(`canvas edge ${e.id} has no document edge`);
      const { source, target } = e;
      const sourceHandle = e.sourceHandle ?? edge.sourceHandle;
      if (edge.source === source && edge.target === target && edge.sourceHandle === sourceHandle) return edge;
      return { ...edge, source, target, sourceHandle };
    }),
  };
}

/**
 * Keeps the previous React Flow node object wherever nothing visible changed, so memoised node
 * components (and React Flow's own node wrappers) skip re-rendering: a change re-renders only the
 * nodes it touched (benchmark B3). `selected`/`dragging`/`measured` of the previous object are kept.
 */
export function reuseNodes(prev: readonly FlowNode[], next: FlowNode[]): FlowNode[] {
  const byId = new Map(prev.map((n) => [n.id, n]));
  return next.map((n) => {
    const old = byId.get(n.id);
    if (!old) return n;
    const same = old.type === n.type && samePosition(old.position, n.position) && sameData(old.data, n.data);
    if (same) return old;
    return { ...n, selected: old.selected, measured: old.measured, width: old.width, height: old.height };
  });
}

function sameData(a: FlowNodeData, b: FlowNodeData): boolean {
  return (
    a.node === b.node &&
    a.agent === b.agent &&
    a.defaultModel === b.defaultModel &&
    a.incoming === b.incoming &&
    sameList(a.issues, b.issues) &&
    a.run?.status === b.run?.status &&
    a.run?.iteration === b.run?.iteration &&
    a.run?.history === b.run?.history &&
    a.run?.items?.succeeded === b.run?.items?.succeeded &&
    a.run?.items?.failed === b.run?.items?.failed &&
    a.run?.items?.running === b.run?.items?.running &&
    a.run?.items?.total === b.run?.items?.total &&
    a.run?.writing === b.run?.writing &&
    a.diff === b.diff &&
    a.handles.length === b.handles.length &&
    a.handles.every((h, i) => h.id === b.handles[i]?.id && h.label === b.handles[i]?.label)
  );
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Same as {@link reuseNodes} for edges (keeps `selected`). */
export function reuseEdges(prev: readonly FlowEdge[], next: FlowEdge[]): FlowEdge[] {
  const byId = new Map(prev.map((e) => [e.id, e]));
  return next.map((e) => {
    const old = byId.get(e.id);
    if (!old || !old.data) return e;
    if (
      old.data.edge === e.data.edge &&
      old.data.diff === e.data.diff &&
      old.data.lane === e.data.lane &&
      sameList(old.data.issues, e.data.issues)
    )
      return old;
    return { ...e, selected: old.selected };
  });
}
