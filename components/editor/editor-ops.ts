import type { Connection, XYPosition } from "@xyflow/react";
import { buildGraph, goesBack } from "@/lib/workflow/graph";
import { tryApplyOperations, type Operation } from "@/lib/workflow/operations";
import { defaultNode, nodeKindRegistry } from "@/lib/workflow/registry";
import {
  outcomesOf,
  type AgentSpec,
  type Edge,
  type NodeKind,
  type Workflow,
  type WorkflowNode,
} from "@/lib/workflow/schema";
import type { Edit, EditResult } from "./use-editor-document";

/**
 * The editor's edits. Each turns a user gesture into lib/workflow operations and applies them as
 * one undo step (`tryApplyOperations`); the editor never changes a document any other way. Gestures
 * the model forbids (a second start, an edge into start...) are refused here with the reason.
 */

const refuse = (error: string): EditResult => ({ ok: false, error });

/** Applies `ops` to `doc`: the next document, or the operation error's message. */
export function applyOps(doc: Workflow, ops: readonly Operation[]): EditResult {
  if (ops.length === 0) return refuse("Nothing to change.");
  const result = tryApplyOperations(doc, ops);
  return result.ok ? { ok: true, doc: result.workflow } : refuse(result.error.message);
}

/** An edit from a function computing operations (or a refusal message). */
const edit =
  (plan: (doc: Workflow) => Operation[] | string): Edit =>
  (doc) => {
    const ops = plan(doc);
    return typeof ops === "string" ? refuse(ops) : applyOps(doc, ops);
  };

/** A fresh id `<base><n>` not used by any node or edge of `doc` (agent keys: `agents: true`) nor in `taken`. */
export function freshId(doc: Workflow, base: string, taken: ReadonlySet<string> = new Set(), agents = false): string {
  const used = new Set([
    ...taken,
    ...(agents ? doc.agents.map((a) => a.key) : [...doc.nodes.map((n) => n.id), ...doc.edges.map((e) => e.id)]),
  ]);
  const stem = base.replace(/[^A-Za-z0-9_-]/g, "") || "node";
  for (let i = 1; ; i++) if (!used.has(`${stem}${i}`)) return `${stem}${i}`;
}

/** Adds a node of `kind` at `position` (registry defaults); an agent/orchestrator gets its own inline agent spec. */
export function addNode(
  kind: NodeKind,
  position: XYPosition,
  saved?: {
    id: string;
    name: string;
    spec?: Partial<Pick<AgentSpec, "description" | "instructions" | "model" | "tools">>;
  },
): Edit {
  return edit((doc) => {
    const spec = nodeKindRegistry[kind];
    if (spec.singleton && doc.nodes.some((n) => n.type === kind))
      return `A workflow has exactly one ${spec.label.toLowerCase()} node.`;
    const id = freshId(doc, kind);
    const name = saved ? saved.name : `${spec.label} ${id.replace(/^\D+/, "")}`;
    const node: WorkflowNode = {
      ...defaultNode(kind, id),
      name,
      position: { x: Math.round(position.x), y: Math.round(position.y) },
    };
    if (node.type !== "agent" && node.type !== "orchestrator") return [{ type: "addNode", node }];
    const key = doc.agents.some((a) => a.key === id) ? freshId(doc, id, new Set(), true) : id;
    const agent: AgentSpec = {
      key,
      name,
      description: "",
      instructions: "",
      tools: [],
      ...(saved ? { ...saved.spec, savedAgentId: saved.id } : {}),
    };
    return [
      { type: "addAgent", agent },
      { type: "addNode", node: { ...node, agent: key } },
    ];
  });
}

/** Moves nodes to the given positions (one undo step for a whole drag). */
export function moveNodes(positions: ReadonlyMap<string, XYPosition>): Edit {
  return edit(() => [...positions].map(([id, p]) => ({ type: "moveNode" as const, id, position: { x: p.x, y: p.y } })));
}

/**
 * Connects an outcome handle to a node. Going back (to itself or an upstream node) makes a loop
 * edge capped at the workflow's maxIterationsPerLoop; forbidden connections are refused with why.
 */
export function connect(c: Connection): Edit {
  return edit((doc) => {
    const source = doc.nodes.find((n) => n.id === c.source);
    const target = doc.nodes.find((n) => n.id === c.target);
    if (!source || !target) return "Both ends of a connection must be nodes of this workflow.";
    if (target.type === "start") return "The start node cannot have incoming edges: it is where a run begins.";
    if (nodeKindRegistry[source.type].terminal)
      return `${nodeKindRegistry[source.type].label} nodes are terminal: nothing follows them.`;
    const handle = c.sourceHandle ?? "";
    if (!outcomesOf(source).includes(handle)) return `"${source.name || source.id}" has no outcome "${handle}".`;
    if (doc.edges.some((e) => e.source === source.id && e.sourceHandle === handle && e.target === target.id)) {
      return "These two nodes are already connected by that outcome.";
    }
    const back = goesBack(buildGraph(doc), { source: source.id, target: target.id });
    const edge: Edge = back
      ? {
          id: freshId(doc, "loop"),
          source: source.id,
          sourceHandle: handle,
          target: target.id,
          kind: "loop",
          maxIterations: doc.limits.maxIterationsPerLoop,
          onExhausted: "continue",
        }
      : { id: freshId(doc, "e"), source: source.id, sourceHandle: handle, target: target.id, kind: "forward" };
    return [{ type: "addEdge", edge }];
  });
}

/** Removes nodes (with every edge touching them) and edges, as one step. The start node stays. */
export function removeElements(nodeIds: readonly string[], edgeIds: readonly string[]): Edit {
  return edit((doc) => {
    const nodes = new Set(nodeIds.filter((id) => doc.nodes.find((n) => n.id === id)?.type !== "start"));
    const edges = doc.edges.filter((e) => edgeIds.includes(e.id) && !nodes.has(e.source) && !nodes.has(e.target));
    if (nodes.size === 0 && edges.length === 0)
      return nodeIds.length ? "The start node cannot be deleted." : "Nothing selected.";
    return [
      ...edges.map((e) => ({ type: "removeEdge" as const, id: e.id })),
      ...[...nodes].map((id) => ({ type: "removeNode" as const, id })),
    ];
  });
}

/** Patches one node; fields set to undefined are removed. */
export function updateNode(id: string, patch: Record<string, unknown>): Edit {
  return edit(() => [{ type: "updateNode", id, ...split(patch) }]);
}

/** Patches one edge (kind, cap, onExhausted, label...); fields set to undefined are removed. */
export function updateEdge(id: string, patch: Partial<Edge>): Edit {
  return edit(() => [{ type: "updateEdge", id, ...split(patch) }]);
}

/** Patches workflow-level fields (name, description, default model, inputs, outputs, variables, limits). */
export function updateWorkflow(patch: Partial<Omit<Workflow, "nodes" | "edges" | "agents">>): Edit {
  return edit(() => {
    const ops: Operation[] = [];
    if ("name" in patch || "description" in patch || "defaultModel" in patch) {
      ops.push({
        type: "setInfo",
        name: patch.name,
        description: patch.description,
        ...("defaultModel" in patch ? { defaultModel: patch.defaultModel ?? null } : {}),
      });
    }
    if (patch.inputs) ops.push({ type: "setInputs", inputs: patch.inputs });
    if (patch.outputs) ops.push({ type: "setOutputs", outputs: patch.outputs });
    if (patch.variables) ops.push({ type: "setVariables", variables: patch.variables });
    if (patch.limits) ops.push({ type: "setLimits", limits: patch.limits });
    return ops;
  });
}

/** Creates or patches the agent spec `key`. */
export function upsertAgent(key: string, patch: Partial<AgentSpec>): Edit {
  return edit((doc) =>
    doc.agents.some((a) => a.key === key)
      ? [{ type: "updateAgent", key, ...split(patch) }]
      : [{ type: "addAgent", agent: { key, name: key, description: "", instructions: "", tools: [], ...patch } }],
  );
}

/** Splits a patch into set fields and `unset` (fields explicitly undefined). */
function split(patch: Record<string, unknown>): { patch: Record<string, unknown>; unset?: string[] } {
  const unset = Object.keys(patch).filter((k) => patch[k] === undefined);
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  return unset.length ? { patch: set, unset } : { patch: set };
}

/** What copy puts on the clipboard: nodes and the edges between them (documents' own objects). */
export type Clip = { nodes: WorkflowNode[]; edges: Edge[] };

/** The selected nodes (start excluded) and the edges whose both ends are among them. */
export function copySelection(doc: Workflow, nodeIds: readonly string[]): Clip {
  const ids = new Set(nodeIds);
  const nodes = doc.nodes.filter((n) => ids.has(n.id) && n.type !== "start");
  const kept = new Set(nodes.map((n) => n.id));
  return { nodes, edges: doc.edges.filter((e) => kept.has(e.source) && kept.has(e.target)) };
}

/** Pastes a clip with fresh ids, shifted by `offset`; agents are shared with the originals. */
export function paste(clip: Clip, offset: XYPosition = { x: 40, y: 40 }): Edit {
  return edit((doc) => {
    if (clip.nodes.length === 0) return "Nothing to paste.";
    const taken = new Set<string>();
    const fresh = (base: string) => {
      const id = freshId(doc, base, taken);
      taken.add(id);
      return id;
    };
    const rename = new Map(clip.nodes.map((n) => [n.id, fresh(n.id.replace(/\d+$/, ""))]));
    const nodes = clip.nodes.map((n, i): Operation => ({
      type: "addNode",
      node: {
        ...n,
        id: rename.get(n.id) ?? n.id,
        position: { x: (n.position?.x ?? i * 40) + offset.x, y: (n.position?.y ?? 0) + offset.y },
      },
    }));
    const edges = clip.edges.map((e): Operation => ({
      type: "addEdge",
      edge: {
        ...e,
        id: fresh(e.kind === "loop" ? "loop" : "e"),
        source: rename.get(e.source) ?? e.source,
        target: rename.get(e.target) ?? e.target,
      },
    }));
    return [...nodes, ...edges];
  });
}
