import { buildGraph, forwardCycles, goesBack } from "@/lib/workflow/graph";
import { isTerminal, outcomesOf, type Edge, type Workflow, type WorkflowNode } from "@/lib/workflow/schema";
import { edgeId } from "./compile";
import { fix, type LocalFix } from "./fixes";
import { uniqueId } from "./resolve";

/**
 * Document-level structure repairs shared by new designs and edits: one start (added, or extras
 * merged into the first), at least one end, no edge into start or out of a terminal, edges from real
 * outcomes only, forward cycles turned into capped loop edges and loop edges that do not go back
 * turned forward, caps and exhaustion policies on every loop. Wiring is in repair-wiring.ts.
 */

/** A workflow being repaired, with its fixes and the edge ids taken so far. */
export class Draft {
  readonly taken: Set<string>;
  constructor(
    public wf: Workflow,
    readonly fixes: LocalFix[],
  ) {
    this.taken = new Set(wf.edges.map((e) => e.id));
  }

  node(id: string): WorkflowNode | undefined {
    return this.wf.nodes.find((n) => n.id === id);
  }

  /** Adds a forward (or loop) edge from `source`'s outcome `handle` to `target`. */
  connect(source: string, handle: string, target: string, extra: Partial<Edge> = {}): Edge {
    const edge: Edge = {
      id: edgeId(source, handle, target, this.taken),
      source,
      sourceHandle: handle,
      target,
      kind: "forward",
      ...extra,
    };
    this.wf = { ...this.wf, edges: [...this.wf.edges, edge] };
    return edge;
  }

  setEdges(edges: Edge[]): void {
    this.wf = { ...this.wf, edges };
  }

  setNodes(nodes: WorkflowNode[]): void {
    this.wf = { ...this.wf, nodes };
  }

  replaceNode(node: WorkflowNode): void {
    this.setNodes(this.wf.nodes.map((n) => (n.id === node.id ? node : n)));
  }

  /** A fresh node id based on `base`. */
  freshId(base: string): string {
    return uniqueId(base, new Set(this.wf.nodes.map((n) => n.id)));
  }
}

/** Nodes with no incoming edge at all, in listed order, that a start should lead to. */
function roots(d: Draft): WorkflowNode[] {
  const entered = new Set(d.wf.edges.map((e) => e.target));
  return d.wf.nodes.filter((n) => n.type !== "start" && !isTerminal(n) && !entered.has(n.id));
}

/** Exactly one start: a missing one is added and led to the roots; extra ones are merged into the first. */
export function ensureStart(d: Draft): void {
  const starts = d.wf.nodes.filter((n) => n.type === "start");
  if (starts.length === 0) {
    const id = d.freshId("start");
    const targets = roots(d);
    const first = d.wf.nodes.find((n) => !isTerminal(n));
    d.setNodes([{ id, type: "start", name: "Start", join: "all" }, ...d.wf.nodes]);
    for (const t of targets.length ? targets : first ? [first] : []) d.connect(id, "next", t.id);
    d.fixes.push(
      fix(
        "start_added",
        `The design had no start node: added "${id}"${targets.length ? `, leading to ${targets.map((t) => t.id).join(", ")}` : ""}.`,
        "no_start_node",
      ),
    );
    return;
  }
  const [kept, ...extra] = starts;
  if (!kept || extra.length === 0) return;
  const gone = new Set(extra.map((s) => s.id));
  const moved = d.wf.edges
    .filter((e) => gone.has(e.source))
    .map((e) => ({ ...e, source: kept.id, sourceHandle: "next" }));
  d.setNodes(d.wf.nodes.filter((n) => !gone.has(n.id)));
  d.setEdges([...d.wf.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target)), ...moved]);
  d.fixes.push(
    fix(
      "start_merged",
      `The design had ${starts.length} start nodes: merged ${[...gone].join(", ")} into "${kept.id}".`,
      "multiple_start_nodes",
    ),
  );
}

/** At least one end node (wired later by the outcome wiring). */
export function ensureEnd(d: Draft): void {
  if (d.wf.nodes.some((n) => n.type === "end")) return;
  const id = d.freshId("end");
  d.setNodes([...d.wf.nodes, { id, type: "end", name: "End", join: "any", outputs: {} }]);
  d.fixes.push(fix("end_added", `The design had no end node: added "${id}".`, "no_end_node"));
}

/**
 * Edges the graph cannot hold: unknown ends, out of a terminal, into the start (a loop back to the
 * start goes to the start's first step instead), from an outcome the source does not have (re-pointed
 * to the source's only outcome when it has one), and exact duplicates.
 */
export function dropBadEdges(d: Draft): void {
  const start = d.wf.nodes.find((n) => n.type === "start");
  const firstStep = start && d.wf.edges.find((e) => e.source === start.id && e.kind === "forward")?.target;
  const seen = new Set<string>();
  const kept: Edge[] = [];
  for (const e of d.wf.edges) {
    const edge = repointed(d, e, start?.id, firstStep);
    if (!edge) continue;
    const key = `${edge.source}|${edge.sourceHandle}|${edge.target}|${edge.kind}`;
    if (seen.has(key)) {
      d.fixes.push(
        fix("edge_dropped", `Edge ${e.source} -> ${e.target} repeats another edge: dropped.`, "duplicate_edge"),
      );
      continue;
    }
    seen.add(key);
    kept.push(edge);
  }
  d.setEdges(kept);
}

function repointed(d: Draft, e: Edge, start: string | undefined, firstStep: string | undefined): Edge | undefined {
  const source = d.node(e.source);
  const target = d.node(e.target);
  const drop = (why: string, code: string) =>
    void d.fixes.push(fix("edge_dropped", `Edge ${e.source} -> ${e.target} ${why}: dropped.`, code));
  if (!source || !target)
    return drop("names a node that does not exist", source ? "edge_unknown_target" : "edge_unknown_source");
  if (isTerminal(source))
    return drop(`leaves ${source.type} node "${source.id}", which has no outcomes`, "edge_unknown_handle");
  if (e.target === start) {
    if (e.kind !== "loop" || !firstStep || firstStep === e.source)
      return drop("enters the start node", "edge_into_start");
    d.fixes.push(
      fix(
        "reference_resolved",
        `Loop edge ${e.source} -> ${e.target} goes back to the first step "${firstStep}" instead of the start.`,
        "edge_into_start",
      ),
    );
    return { ...e, target: firstStep };
  }
  const outcomes = outcomesOf(source);
  if (outcomes.includes(e.sourceHandle)) return e;
  if (outcomes.length === 1 || source.type === "tool") {
    d.fixes.push(
      fix(
        "reference_resolved",
        `Edge ${e.source} -> ${e.target} leaves from "${outcomes[0]}" (the node has no outcome "${e.sourceHandle}").`,
        "edge_unknown_handle",
      ),
    );
    return { ...e, sourceHandle: outcomes[0]! };
  }
  return drop(`leaves from "${e.sourceHandle}", which is not an outcome of "${source.id}"`, "edge_unknown_handle");
}

/** Loop edges that do not go back become forward edges; forward edges closing a cycle become loop edges. */
export function orientEdges(d: Draft): void {
  const graph = buildGraph(d.wf);
  d.setEdges(
    d.wf.edges.map((e) => {
      if (e.kind !== "loop" || goesBack(graph, e)) return e;
      d.fixes.push(
        fix(
          "loop_fixed",
          `Edge ${e.source} -> ${e.target} was marked as a loop but does not go back: made a forward edge.`,
          "loop_not_backward",
        ),
      );
      const { maxIterations: _max, onExhausted: _on, continueWith: _with, ...rest } = e;
      return { ...rest, kind: "forward" as const };
    }),
  );
  const back = new Set(forwardCycles(buildGraph(d.wf)).map((c) => c.edge.id));
  if (back.size === 0) return;
  const cap = d.wf.limits.maxIterationsPerLoop;
  d.setEdges(
    d.wf.edges.map((e) => {
      if (!back.has(e.id)) return e;
      d.fixes.push(
        fix(
          "loop_made",
          `Edge ${e.source} -> ${e.target} closes a cycle: made a loop edge capped at ${e.maxIterations ?? cap}.`,
          "forward_cycle",
        ),
      );
      return {
        ...e,
        kind: "loop" as const,
        maxIterations: e.maxIterations ?? cap,
        onExhausted: e.onExhausted ?? ("continue" as const),
      };
    }),
  );
}

/** Every loop edge gets a cap of at least 1 (the workflow's default) and an exhaustion policy (continue). */
export function capLoops(d: Draft): void {
  const cap = d.wf.limits.maxIterationsPerLoop;
  d.setEdges(
    d.wf.edges.map((e) => {
      if (e.kind !== "loop") return e;
      const capped = e.maxIterations !== undefined && e.maxIterations >= 1;
      if (capped && e.onExhausted) return e;
      if (!capped)
        d.fixes.push(
          fix(
            "loop_capped",
            `Loop edge ${e.source} -> ${e.target} capped at the default ${cap} iterations.`,
            "loop_missing_max_iterations",
          ),
        );
      return { ...e, maxIterations: capped ? e.maxIterations : cap, onExhausted: e.onExhausted ?? "continue" };
    }),
  );
}
