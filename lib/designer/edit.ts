import { OperationError, applyOperation, renameReferences, type Operation } from "@/lib/workflow/operations";
import { nodeSchema, type Edge, type Workflow, type WorkflowNode } from "@/lib/workflow/schema";
import { compileEdges, compileNode, edgeId, toDesign, type DesignIssue } from "./compile";
import { agentOps, inputOps, loopCapOps, variableOps } from "./edit-ops";
import { noOp, nodeRef, opIssue, type EditOptions, type EditState } from "./edit-state";
import { fix, type LocalFix } from "./fixes";
import { repairDesignEdges } from "./repair-edges";
import { repairNode } from "./repair-nodes";
import { slug, uniqueId } from "./resolve";
import type { DesignEdge, DesignNode, EditOperation } from "./schemas";

/**
 * Applies the model's edit operations to an existing document. Each one is translated into
 * lib/workflow's typed operations (the vocabulary the editor and version diffs share) and applied
 * with `applyOperation`. Untouched nodes and edges keep their ids and positions. An operation is
 * repaired where the fix is plain (a new node's id, kind and fields; ends named by a near spelling;
 * removing what is not there is a no-op; inserting between two nodes with no edge wires them
 * through the new node); one that still cannot apply becomes an issue for the model.
 */

function apply(s: EditState, i: number, ops: Operation[]): void {
  try {
    s.wf = ops.reduce(applyOperation, s.wf);
    s.applied.push(...ops);
  } catch (e) {
    if (!(e instanceof OperationError)) throw e;
    opIssue(s, i, e.message);
  }
}

function newNode(s: EditState, i: number, raw: DesignNode): WorkflowNode | undefined {
  const taken = new Set(s.wf.nodes.map((n) => n.id));
  const base = slug(raw.id || raw.name || raw.kind || "node");
  const id = uniqueId(base, taken);
  if (id !== raw.id)
    s.fixes.push(
      fix(
        "id_renamed",
        `New node "${raw.id}" ${taken.has(base) ? "took an existing id" : "had no valid id"}: named "${id}".`,
        "duplicate_node_id",
      ),
    );
  const parsed = nodeSchema.safeParse(compileNode(repairNode({ ...raw, id }, s.opts.kinds, [], s.fixes)));
  if (parsed.success) return parsed.data;
  return opIssue(
    s,
    i,
    `node "${raw.id}" is not a valid ${raw.kind || "node"}: ${parsed.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).join("; ")}`,
  );
}

/** Design edges → addEdge operations (ends resolved, branches declared where the source takes them). */
function edgeOps(s: EditState, edges: DesignEdge[], nodes: WorkflowNode[] = s.wf.nodes): Operation[] {
  const current = toDesign({ ...s.wf, nodes, edges: s.wf.edges }).design;
  const repaired = repairDesignEdges(edges, current.nodes, s.wf.limits.maxIterationsPerLoop, s.fixes);
  const ops: Operation[] = [];
  for (const n of repaired.nodes) {
    const before = current.nodes.find((x) => x.id === n.id);
    if (before && JSON.stringify(before.branches) !== JSON.stringify(n.branches) && nodes.some((x) => x.id === n.id)) {
      const patch = compileNode(n) as { branches?: unknown };
      ops.push({ type: "updateNode", id: n.id, patch: { branches: patch.branches } });
    }
  }
  const withBranches = nodes.map((n) => {
    const r = repaired.nodes.find((x) => x.id === n.id);
    return r ? nodeSchema.parse(compileNode(r)) : n;
  });
  const { edges: out, issues } = compileEdges(repaired.edges, withBranches, new Set(s.wf.edges.map((e) => e.id)));
  s.issues.push(...issues);
  return [...ops, ...out.map((edge): Operation => ({ type: "addEdge", edge }))];
}

/** An edge leaving a duplicate branch a fix renamed, when the first holder is wired already, leaves the renamed one. */
function followRename(s: EditState, edge: DesignEdge): DesignEdge {
  const renamed = edge.branch ? s.renamed.get(edge.from)?.get(edge.branch) : undefined;
  if (!renamed || !s.wf.edges.some((e) => e.source === edge.from && e.sourceHandle === edge.branch)) return edge;
  s.fixes.push(
    fix(
      "reference_resolved",
      `Edge ${edge.from} -> ${edge.to} leaves from the renamed branch "${renamed}".`,
      "duplicate_branch_id",
    ),
  );
  return { ...edge, branch: renamed };
}

const matches = (e: Edge, from: string, to: string, branch?: string) =>
  e.source === from && e.target === to && (branch === undefined || e.sourceHandle === branch);

/** removeNode, plus (reconnect) an edge from each forward predecessor outcome to each forward successor. */
function removeNodeOps(s: EditState, id: string, reconnect: boolean): Operation[] {
  const ops: Operation[] = [{ type: "removeNode", id }];
  const feeder = s.wf.edges.find(
    (e) => e.target === id && e.kind === "forward" && s.wf.nodes.find((n) => n.id === e.source)?.type !== "start",
  );
  s.removed.set(id, feeder?.source);
  if (!reconnect) return ops;
  const into = s.wf.edges.filter((e) => e.target === id && e.kind === "forward" && e.source !== id);
  const out = s.wf.edges.filter((e) => e.source === id && e.kind === "forward" && e.target !== id);
  const taken = new Set(s.wf.edges.map((e) => e.id));
  for (const a of into) {
    for (const b of out) {
      if (s.wf.edges.some((e) => matches(e, a.source, b.target, a.sourceHandle))) continue;
      ops.push({
        type: "addEdge",
        edge: { ...a, id: edgeId(a.source, a.sourceHandle, b.target, taken), target: b.target },
      });
    }
  }
  return ops;
}

/** The document fields a design field sets (a subflow's legacy `args` carries workflowId, inputs, version). */
const fieldsOf = (kind: string, key: string) =>
  kind === "subflow" && key === "args" ? ["workflowId", "inputs", "version"] : [key];

function updateNodeOps(s: EditState, i: number, ref: string, set: Partial<DesignNode>): Operation[] | undefined {
  if (s.removed.has(ref)) return noOp(s, i, `node "${ref}" was removed by an earlier operation`);
  const id = nodeRef(s, i, ref);
  const current = id ? s.wf.nodes.find((n) => n.id === id) : undefined;
  if (!id || !current)
    return opIssue(s, i, `node "${ref}" does not exist (nodes: ${s.wf.nodes.map((n) => n.id).join(", ")}).`);
  const asDesign = toDesign({ ...s.wf, nodes: [current], edges: [] }).design.nodes[0]!;
  const repaired = repairNode({ ...asDesign, ...set, id, kind: current.type }, s.opts.kinds, [], s.fixes);
  set.branches?.forEach((b, k) => {
    const now = repaired.branches?.[k]?.id;
    if (now && now !== b.id) s.renamed.set(id, new Map([...(s.renamed.get(id) ?? []), [b.id, now]]));
  });
  const compiled = compileNode(repaired) as Record<string, unknown>;
  const fields = Object.keys(set).flatMap((k) => fieldsOf(current.type, k));
  const patch = Object.fromEntries(fields.filter((k) => k in compiled).map((k) => [k, compiled[k]]));
  const switched =
    current.type === "subflow" && typeof patch.workflowId === "string" && patch.workflowId !== current.workflowId;
  const unset = switched && !("version" in set) && "version" in current ? ["version"] : [];
  return [{ type: "updateNode", id, patch, ...(unset.length ? { unset } : {}) }];
}

/**
 * insert_between: the edge from → to is replaced by from → new → to. With no such edge the new node
 * is wired between the two; with one end gone (removed by an earlier operation) it is wired to the
 * other; with both gone it is only added (the wiring repairs place it).
 */
function insertOps(
  s: EditState,
  i: number,
  op: Extract<EditOperation, { op: "insert_between" }>,
): Operation[] | undefined {
  const from = nodeRef(s, i, op.from);
  const to = nodeRef(s, i, op.to);
  if ((!from && !s.removed.has(op.from)) || (!to && !s.removed.has(op.to))) {
    return opIssue(s, i, `there is no node "${from ? op.to : op.from}" to insert next to.`);
  }
  const old = from && to ? s.wf.edges.filter((e) => matches(e, from, to, op.branch)) : [];
  if (old.length === 0) {
    const why =
      from && to
        ? `no edge ${from} -> ${to}; the new node is wired between them`
        : "one end was removed earlier; the new node is wired to the other";
    s.fixes.push(fix("operation_fixed", `Operation ${i + 1}: ${why}.`, "invalid_operation"));
  }
  const node = newNode(s, i, op.node);
  if (!node) return undefined;
  const firsts: DesignEdge[] = old.length
    ? old.map((e) => ({ from: e.source, branch: e.sourceHandle, to: node.id }))
    : from
      ? [{ from, ...(op.branch ? { branch: op.branch } : {}), to: node.id }]
      : [];
  const edges = [...firsts, ...(to ? [{ from: node.id, to }] : [])];
  return [
    ...old.map((e): Operation => ({ type: "removeEdge", id: e.id })),
    { type: "addNode", node },
    ...edgeOps(s, edges, [...s.wf.nodes, node]),
  ];
}

/** The lib/workflow operations of one design-level edit (undefined: it cannot apply, an issue says why). */
function translate(s: EditState, i: number, op: EditOperation): Operation[] | undefined {
  switch (op.op) {
    case "add_agent":
    case "update_agent":
    case "remove_agent":
      return agentOps(s, i, op);
    case "add_node": {
      const node = newNode(s, i, op.node);
      return node ? [{ type: "addNode", node }] : undefined;
    }
    case "update_node":
      return updateNodeOps(s, i, op.id, op.set);
    case "remove_node": {
      const id = nodeRef(s, i, op.id);
      return id ? removeNodeOps(s, id, op.reconnect ?? false) : noOp(s, i, `node "${op.id}" does not exist`);
    }
    case "insert_between":
      return insertOps(s, i, op);
    case "add_edge":
      return edgeOps(s, [followRename(s, op.edge)]);
    case "remove_edge": {
      const [from, to] = [nodeRef(s, i, op.from), nodeRef(s, i, op.to)];
      const hit = from && to ? s.wf.edges.filter((e) => matches(e, from, to, op.branch)) : [];
      return hit.length
        ? hit.map((e) => ({ type: "removeEdge", id: e.id }))
        : noOp(s, i, `there is no edge ${op.from} -> ${op.to}`);
    }
    case "set_loop_cap":
      return loopCapOps(s, i, op);
    case "add_input":
      return inputOps(s, i, op);
    case "set_variable":
      return variableOps(s, op);
  }
}

/** Readers of a removed node's output read the node that fed it instead (or nothing, repaired later). */
function rereadRemoved(s: EditState): void {
  for (const [gone, feeder] of s.removed) {
    if (!feeder || s.wf.nodes.some((n) => n.id === gone) || !s.wf.nodes.some((n) => n.id === feeder)) continue;
    const before = JSON.stringify(s.wf.nodes);
    const nodes = s.wf.nodes.map((n) => renameReferences(n, gone, feeder));
    if (JSON.stringify(nodes) === before) continue;
    s.wf = { ...s.wf, nodes };
    s.fixes.push(
      fix(
        "reference_resolved",
        `Nodes that read the removed "${gone}" read "${feeder}", which fed it, instead.`,
        "unknown_node_ref",
      ),
    );
  }
}

/**
 * Applies `ops` in order to `base`; returns the edited document, the lib/workflow operations that
 * produced it, what could not apply, and the local fixes made on the way.
 */
export function applyEdits(
  base: Workflow,
  ops: readonly EditOperation[],
  opts: EditOptions,
): { workflow: Workflow; operations: Operation[]; issues: DesignIssue[]; fixes: LocalFix[] } {
  const s: EditState = { wf: base, issues: [], fixes: [], opts, applied: [], renamed: new Map(), removed: new Map() };
  ops.forEach((op, i) => {
    const translated = translate(s, i, op);
    if (translated) apply(s, i, translated);
  });
  rereadRemoved(s);
  return { workflow: s.wf, operations: s.applied, issues: s.issues, fixes: s.fixes };
}

export type { EditOptions } from "./edit-state";
