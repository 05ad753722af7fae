import { isTerminal, type Edge, type Workflow, type WorkflowNode } from "./schema";

/**
 * Graph utilities over a workflow document, shared by the validator, the engine (dead-path
 * elimination, R3) and the editor. Forward edges form the data/control DAG; loop edges are kept
 * apart. Edges whose source or target is unknown are left out (validate() reports them); for a
 * duplicated node id the first node wins.
 */
export type Graph = {
  nodes: Map<string, WorkflowNode>;
  /** The first start node, if any. */
  start: WorkflowNode | undefined;
  forwardOut: Map<string, Edge[]>;
  forwardIn: Map<string, Edge[]>;
  loopOut: Map<string, Edge[]>;
  loopIn: Map<string, Edge[]>;
};

const push = (map: Map<string, Edge[]>, key: string, edge: Edge) => map.set(key, [...(map.get(key) ?? []), edge]);
const list = (map: Map<string, Edge[]>, key: string): Edge[] => map.get(key) ?? [];

/** Indexes a document's nodes and edges (forward and loop adjacency, both directions). */
export function buildGraph(doc: Pick<Workflow, "nodes" | "edges">): Graph {
  const nodes = new Map<string, WorkflowNode>();
  for (const node of doc.nodes) if (!nodes.has(node.id)) nodes.set(node.id, node);
  const graph: Graph = {
    nodes,
    start: doc.nodes.find((n) => n.type === "start"),
    forwardOut: new Map(),
    forwardIn: new Map(),
    loopOut: new Map(),
    loopIn: new Map(),
  };
  for (const edge of doc.edges) {
    if (!nodes.has(edge.source) || !nodes.has(edge.target)) continue;
    push(edge.kind === "loop" ? graph.loopOut : graph.forwardOut, edge.source, edge);
    push(edge.kind === "loop" ? graph.loopIn : graph.forwardIn, edge.target, edge);
  }
  return graph;
}

/** Which edges a traversal follows: forward only (the DAG) or forward and loop. */
export type EdgeSet = "forward" | "all";

/** Outgoing (or, reversed, incoming) edges of a node within `edges`. */
export function edgesOf(graph: Graph, id: string, edges: EdgeSet, reverse = false): Edge[] {
  const forward = list(reverse ? graph.forwardIn : graph.forwardOut, id);
  return edges === "forward" ? forward : [...forward, ...list(reverse ? graph.loopIn : graph.loopOut, id)];
}

/** Nodes reachable from `from` (included), following `edges`, optionally reversed or minus some edges. */
export function reachable(
  graph: Graph,
  from: Iterable<string>,
  options: { edges?: EdgeSet; reverse?: boolean; skip?: (edge: Edge) => boolean } = {},
): Set<string> {
  const { edges = "all", reverse = false, skip } = options;
  const seen = new Set<string>();
  const stack = [...from].filter((id) => graph.nodes.has(id));
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const edge of edgesOf(graph, id, edges, reverse)) {
      if (skip?.(edge)) continue;
      const next = reverse ? edge.source : edge.target;
      if (!seen.has(next)) stack.push(next);
    }
  }
  return seen;
}

/** Nodes reachable from the start node through any edge (empty when there is no start). */
export function reachableFromStart(graph: Graph): Set<string> {
  return graph.start ? reachable(graph, [graph.start.id]) : new Set();
}

/** Nodes from which an `end` or `abort` node can be reached (terminals included). */
export function nodesReachingTerminal(graph: Graph): Set<string> {
  const terminals = [...graph.nodes.values()].filter(isTerminal).map((n) => n.id);
  return reachable(graph, terminals, { reverse: true });
}

/** Forward ancestors of a node: every node with a forward path to it (itself only if on a forward cycle). */
export function forwardAncestors(graph: Graph, id: string): Set<string> {
  const preds = list(graph.forwardIn, id).map((e) => e.source);
  return reachable(graph, preds, { edges: "forward", reverse: true });
}

/** Forward descendants of a node (itself only if on a forward cycle). */
export function forwardDescendants(graph: Graph, id: string): Set<string> {
  return reachable(
    graph,
    list(graph.forwardOut, id).map((e) => e.target),
    { edges: "forward" },
  );
}

/** Immediate dominator sets over forward edges from start: dom(n) = nodes on every start→n path. */
export function forwardDominators(graph: Graph): Map<string, Set<string>> {
  const dom = new Map<string, Set<string>>();
  if (!graph.start) return dom;
  const order = reversePostorder(graph, graph.start.id);
  const all = new Set(order);
  for (const id of order) dom.set(id, id === graph.start.id ? new Set([id]) : new Set(all));
  for (let changed = true; changed;) {
    changed = false;
    for (const id of order) {
      if (id === graph.start.id) continue;
      const preds = list(graph.forwardIn, id)
        .map((e) => dom.get(e.source))
        .filter((d): d is Set<string> => d !== undefined);
      const next = new Set<string>([id, ...[...(preds[0] ?? [])].filter((x) => preds.every((p) => p.has(x)))]);
      if (next.size !== dom.get(id)?.size) {
        dom.set(id, next);
        changed = true;
      }
    }
  }
  return dom;
}

function reversePostorder(graph: Graph, root: string): string[] {
  const seen = new Set<string>();
  const post: string[] = [];
  const stack: { id: string; i: number }[] = [{ id: root, i: 0 }];
  seen.add(root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { id: string; i: number };
    const out = list(graph.forwardOut, top.id);
    if (top.i < out.length) {
      const next = (out[top.i++] as Edge).target;
      if (!seen.has(next)) {
        seen.add(next);
        stack.push({ id: next, i: 0 });
      }
    } else {
      post.push(top.id);
      stack.pop();
    }
  }
  return post.reverse();
}

/**
 * What precedes a node via forward edges: `possibly` = all forward ancestors; `always` = its strict
 * dominators from start (they ran, or were skipped, on every path that reaches it).
 */
export function upstreamOf(
  graph: Graph,
  id: string,
  dominators = forwardDominators(graph),
): { always: Set<string>; possibly: Set<string> } {
  const always = new Set(dominators.get(id) ?? []);
  always.delete(id);
  return { always, possibly: forwardAncestors(graph, id) };
}

/** A loop edge "goes back" when its target is its source or a forward ancestor of it. */
export function goesBack(graph: Graph, edge: Pick<Edge, "source" | "target">): boolean {
  return edge.source === edge.target || forwardAncestors(graph, edge.source).has(edge.target);
}

/** Forward edges that close a cycle (DFS back edges), each with the cycle's node ids in path order. */
export function forwardCycles(graph: Graph): { edge: Edge; cycle: string[] }[] {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const found: { edge: Edge; cycle: string[] }[] = [];
  const visit = (id: string): void => {
    state.set(id, "open");
    path.push(id);
    for (const edge of list(graph.forwardOut, id)) {
      const s = state.get(edge.target);
      if (s === "open") found.push({ edge, cycle: path.slice(path.indexOf(edge.target)) });
      else if (s === undefined) visit(edge.target);
    }
    path.pop();
    state.set(id, "done");
  };
  const roots = [...(graph.start ? [graph.start.id] : []), ...graph.nodes.keys()];
  for (const id of roots) if (!state.has(id)) visit(id);
  return found;
}

/** Kahn order of the forward DAG; nodes on forward cycles are returned apart, never dropped silently. */
export function topologicalOrder(graph: Graph): { order: string[]; cyclic: string[] } {
  const indegree = new Map([...graph.nodes.keys()].map((id) => [id, list(graph.forwardIn, id).length]));
  const queue = [...indegree].filter(([, d]) => d === 0).map(([id]) => id);
  const order: string[] = [];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    order.push(id);
    for (const edge of list(graph.forwardOut, id)) {
      const d = (indegree.get(edge.target) ?? 0) - 1;
      indegree.set(edge.target, d);
      if (d === 0) queue.push(edge.target);
    }
  }
  const placed = new Set(order);
  return { order, cyclic: [...graph.nodes.keys()].filter((id) => !placed.has(id)) };
}

/**
 * Nodes reachable from start (forward edges) only through the given outcome of `nodeId`: what the
 * engine may skip when that branch is not taken (R3). A join fed by another live path is not included.
 */
export function exclusivelyThrough(graph: Graph, nodeId: string, handle: string): Set<string> {
  if (!graph.start) return new Set();
  const all = reachable(graph, [graph.start.id], { edges: "forward" });
  const without = reachable(graph, [graph.start.id], {
    edges: "forward",
    skip: (e) => e.source === nodeId && e.sourceHandle === handle,
  });
  return new Set([...all].filter((id) => !without.has(id)));
}

/**
 * Dynamic dead-path closure (R3): given forward edges known dead (branches not taken), a node whose
 * incoming forward edges are all dead is skipped, and its outgoing forward edges die in turn.
 */
export function propagateDeadEdges(
  graph: Graph,
  deadEdgeIds: Iterable<string>,
): { skipped: Set<string>; deadEdges: Set<string> } {
  const deadEdges = new Set(deadEdgeIds);
  const skipped = new Set<string>();
  const queue = [...graph.nodes.keys()];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    const incoming = list(graph.forwardIn, id);
    if (skipped.has(id) || id === graph.start?.id || incoming.length === 0) continue;
    if (!incoming.every((e) => deadEdges.has(e.id))) continue;
    skipped.add(id);
    for (const edge of list(graph.forwardOut, id)) {
      deadEdges.add(edge.id);
      queue.push(edge.target);
    }
  }
  return { skipped, deadEdges };
}
