import { outcomesOf, type Edge, type Workflow, type WorkflowNode } from "@/lib/workflow/schema";

/**
 * Lookups the planner needs on every event, built once per workflow: nodes by id, outgoing edges
 * by (node, outcome), incoming forward edges, and the forward-reachability used by loops (R4).
 */
export interface GraphIndex {
  workflow: Workflow;
  node(id: string): WorkflowNode | undefined;
  /** Outgoing edges of a node (forward and loop). */
  outgoing(id: string): Edge[];
  /** Incoming forward edges of a node (the join's inputs, R1). */
  incomingForward(id: string): Edge[];
  /** The declared outcome handles of a node. */
  outcomes(id: string): string[];
  /** Nodes on a forward path from `from` to `to` (both included when such a path exists). */
  between(from: string, to: string): Set<string>;
  /** Nodes with a path (forward or loop edges) to `id`, `id` itself left out unless on a cycle: what its step may read. */
  upstream(id: string): Set<string>;
}

const cache = new WeakMap<Workflow, GraphIndex>();

/** Builds (or returns the cached) index of a parsed workflow. */
export function indexWorkflow(workflow: Workflow): GraphIndex {
  const cached = cache.get(workflow);
  if (cached) return cached;
  const nodes = new Map(workflow.nodes.map((n) => [n.id, n]));
  const out = new Map<string, Edge[]>();
  const inFwd = new Map<string, Edge[]>();
  for (const e of workflow.edges) {
    if (!nodes.has(e.source) || !nodes.has(e.target)) continue;
    out.set(e.source, [...(out.get(e.source) ?? []), e]);
    if (e.kind === "forward") inFwd.set(e.target, [...(inFwd.get(e.target) ?? []), e]);
  }
  const reach = (start: string, next: (id: string) => string[]): Set<string> => {
    const seen = new Set<string>([start]);
    const queue = [start];
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      for (const n of next(id)) {
        if (seen.has(n)) continue;
        seen.add(n);
        queue.push(n);
      }
    }
    return seen;
  };
  const fwdOut = (id: string) => (out.get(id) ?? []).filter((e) => e.kind === "forward").map((e) => e.target);
  const fwdIn = (id: string) => (inFwd.get(id) ?? []).map((e) => e.source);
  const anyIn = new Map<string, string[]>();
  for (const e of workflow.edges)
    if (nodes.has(e.source) && nodes.has(e.target)) anyIn.set(e.target, [...(anyIn.get(e.target) ?? []), e.source]);
  const upstream = new Map<string, Set<string>>();
  const index: GraphIndex = {
    workflow,
    node: (id) => nodes.get(id),
    outgoing: (id) => out.get(id) ?? [],
    incomingForward: (id) => inFwd.get(id) ?? [],
    outcomes: (id) => {
      const n = nodes.get(id);
      return n ? outcomesOf(n) : [];
    },
    between: (from, to) => {
      const down = reach(from, fwdOut);
      const up = reach(to, fwdIn);
      return new Set([...down].filter((id) => up.has(id)));
    },
    upstream: (id) => {
      let found = upstream.get(id);
      if (!found) {
        found = new Set([...(anyIn.get(id) ?? [])].flatMap((s) => [...reach(s, (n) => anyIn.get(n) ?? [])]));
        upstream.set(id, found);
      }
      return found;
    },
  };
  cache.set(workflow, index);
  return index;
}
