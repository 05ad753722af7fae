import { buildGraph, forwardCycles, goesBack, nodesReachingTerminal, reachableFromStart, type Graph } from "./graph";
import { issue, q, qs, type ValidationIssue } from "./issues";
import { isTerminal, outcomesOf, type Edge, type Workflow, type WorkflowNode } from "./schema";

/** Start node, ids, edges and their handles. */
export function checkIdsAndEdges(doc: Workflow): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const starts = doc.nodes.filter((n) => n.type === "start");
  if (starts.length === 0) issues.push(issue("no_start_node", "The workflow has no start node."));
  for (const extra of starts.slice(1)) {
    issues.push(
      issue(
        "multiple_start_nodes",
        `The workflow has ${starts.length} start nodes (${qs(starts.map((s) => s.id))}); exactly one is allowed.`,
        { nodeId: extra.id },
      ),
    );
  }
  if (!doc.nodes.some((n) => n.type === "end"))
    issues.push(issue("no_end_node", "The workflow has no end node, so no run can succeed."));
  for (const [id, count] of duplicates(doc.nodes.map((n) => n.id))) {
    issues.push(issue("duplicate_node_id", `Node id ${q(id)} is used by ${count} nodes.`, { nodeId: id }));
  }
  for (const [id, count] of duplicates(doc.edges.map((e) => e.id))) {
    issues.push(issue("duplicate_edge_id", `Edge id ${q(id)} is used by ${count} edges.`, { edgeId: id }));
  }
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  for (const edge of doc.edges) {
    issues.push(...checkEdge(edge, byId));
    const key = `${edge.source}\u0000${edge.sourceHandle}\u0000${edge.target}\u0000${edge.kind}`;
    if (seen.has(key)) {
      issues.push(
        issue(
          "duplicate_edge",
          `Edge ${q(edge.id)} repeats another edge from ${q(edge.source)} (${edge.sourceHandle}) to ${q(edge.target)}.`,
          { edgeId: edge.id },
        ),
      );
    }
    seen.add(key);
  }
  return issues;
}

function checkEdge(edge: Edge, byId: Map<string, WorkflowNode>): ValidationIssue[] {
  const at = { edgeId: edge.id };
  const source = byId.get(edge.source);
  const target = byId.get(edge.target);
  const issues: ValidationIssue[] = [];
  if (!source)
    issues.push(issue("edge_unknown_source", `Edge ${q(edge.id)} starts at unknown node ${q(edge.source)}.`, at));
  if (!target)
    issues.push(issue("edge_unknown_target", `Edge ${q(edge.id)} ends at unknown node ${q(edge.target)}.`, at));
  if (source && !outcomesOf(source).includes(edge.sourceHandle)) {
    const outcomes = outcomesOf(source);
    const allowed =
      outcomes.length > 0
        ? `one of its outcomes (${outcomes.join(", ")})`
        : `an outcome: a ${source.type} node has none`;
    issues.push(
      issue(
        "edge_unknown_handle",
        `Edge ${q(edge.id)} leaves node ${q(source.id)} from ${q(edge.sourceHandle)}, which is not ${allowed}.`,
        { ...at, nodeId: source.id },
      ),
    );
  }
  if (target?.type === "start")
    issues.push(
      issue(
        "edge_into_start",
        `Edge ${q(edge.id)} enters the start node ${q(target.id)}; nothing may lead back to start.`,
        at,
      ),
    );
  return issues;
}

function duplicates(ids: string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 1);
}

/** Reachability from start, paths to a terminal, forward cycles. */
export function checkReachability(doc: Workflow, graph: Graph = buildGraph(doc)): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const fromStart = reachableFromStart(graph);
  const toTerminal = nodesReachingTerminal(graph);
  for (const node of graph.nodes.values()) {
    if (graph.start && node.type !== "start" && !fromStart.has(node.id)) {
      issues.push(
        issue("unreachable_node", `Node ${q(node.id)} is not reachable from the start node.`, { nodeId: node.id }),
      );
    }
    if (!isTerminal(node) && !toTerminal.has(node.id)) {
      issues.push(
        issue("cannot_reach_terminal", `Node ${q(node.id)} cannot reach an end or abort node.`, { nodeId: node.id }),
      );
    }
  }
  for (const { edge, cycle } of forwardCycles(graph)) {
    issues.push(
      issue(
        "forward_cycle",
        `Edge ${q(edge.id)} from ${q(edge.source)} back to ${q(edge.target)} closes a cycle of forward edges (${[...cycle, edge.target].join(" → ")}); make it a loop edge with maxIterations and onExhausted.`,
        { edgeId: edge.id, nodeId: edge.source },
      ),
    );
  }
  return issues;
}

/** Loop edges: cap, exhaustion policy, direction, continuation. */
export function checkLoops(doc: Workflow, graph: Graph = buildGraph(doc)): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const edge of doc.edges) {
    if (edge.kind !== "loop") continue;
    const at = { edgeId: edge.id, nodeId: edge.source };
    if (edge.maxIterations === undefined || edge.maxIterations < 1) {
      issues.push(
        issue("loop_missing_max_iterations", `Loop edge ${q(edge.id)} needs maxIterations of at least 1.`, at),
      );
    }
    if (edge.onExhausted === undefined) {
      issues.push(
        issue("loop_missing_on_exhausted", `Loop edge ${q(edge.id)} needs onExhausted ("continue" or "abort").`, at),
      );
    }
    const source = graph.nodes.get(edge.source);
    if (!source || !graph.nodes.has(edge.target)) continue;
    if (!goesBack(graph, edge)) {
      issues.push(
        issue(
          "loop_not_backward",
          `Loop edge ${q(edge.id)} goes from ${q(edge.source)} to ${q(edge.target)}, which is not upstream of ${q(edge.source)}; make it a forward edge.`,
          at,
        ),
      );
    }
    if (edge.onExhausted === "continue") issues.push(...checkContinuation(edge, source, graph));
  }
  return issues;
}

function checkContinuation(edge: Edge, source: WorkflowNode, graph: Graph): ValidationIssue[] {
  const at = { edgeId: edge.id, nodeId: source.id };
  const others = outcomesOf(source).filter((o) => o !== edge.sourceHandle);
  if (edge.continueWith !== undefined && !others.includes(edge.continueWith)) {
    return [
      issue(
        "loop_continue_invalid",
        `Loop edge ${q(edge.id)} continues with ${q(edge.continueWith)}, which is not another outcome of ${q(source.id)}.`,
        at,
      ),
    ];
  }
  const handle = edge.continueWith ?? others[0];
  const wired = (graph.forwardOut.get(source.id) ?? []).some((e) => e.sourceHandle === handle);
  if (handle === undefined || !wired) {
    return [
      issue(
        "loop_continue_unwired",
        `Loop edge ${q(edge.id)} continues when exhausted, but ${q(source.id)} has no other wired outcome to continue with.`,
        at,
      ),
    ];
  }
  return [];
}
