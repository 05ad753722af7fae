import { nodeSchema, type Edge, type Workflow, type WorkflowNode } from "@/lib/workflow/schema";
import { compileAgent, compileEdges, compileNode, edgeId, toDesign, type DesignIssue, type ModelClassMap } from "./compile";
import { repairEdges, repairNode, slug, type LocalFix } from "./repair";
import type { DesignEdge, DesignNode, EditOperation } from "./schemas";

/**
 * Applies the model's edit operations to an existing document. Untouched nodes and edges keep their
 * ids and positions; an operation that cannot apply becomes an issue (fed back to the model), never
 * a silent partial rewrite.
 */

export interface EditOptions {
  kinds: readonly string[];
  models?: ModelClassMap;
}

/** `renamed`: per node, duplicate branch ids renamed by a local fix (old → new), for later add_edge ops. */
type State = { wf: Workflow; issues: DesignIssue[]; fixes: LocalFix[]; opts: EditOptions; renamed: Map<string, Map<string, string>> };

const opIssue = (s: State, i: number, message: string) => s.issues.push({ code: "invalid_operation", message: `Operation ${i + 1}: ${message}` });

function newNode(s: State, i: number, raw: DesignNode): WorkflowNode | undefined {
  const taken = new Set(s.wf.nodes.map((n) => n.id));
  let node = repairNode({ ...raw, id: slug(raw.id) }, s.opts.kinds, [], s.fixes);
  if (taken.has(node.id)) {
    let id = node.id;
    for (let k = 2; taken.has(id); k++) id = `${node.id}_${k}`;
    s.fixes.push({ code: "duplicate_node_id", message: `New node "${node.id}" renamed to "${id}" (the id was taken).` });
    node = { ...node, id };
  }
  const compiled = s.opts.kinds.includes(node.kind) ? compileNode(node) : undefined;
  const parsed = compiled ? nodeSchema.safeParse(compiled) : undefined;
  if (!parsed?.success) {
    opIssue(s, i, `node "${raw.id}" has kind "${raw.kind}", which is not one of: ${s.opts.kinds.join(", ")}.`);
    return undefined;
  }
  return parsed.data;
}

function addEdges(s: State, edges: DesignEdge[]) {
  const repaired = repairEdges(edges, toDesign(s.wf).design.nodes, s.wf.limits.maxIterationsPerLoop, s.fixes);
  const { edges: out, issues } = compileEdges(repaired, s.wf.nodes, new Set(s.wf.edges.map((e) => e.id)));
  s.wf = { ...s.wf, edges: [...s.wf.edges, ...out] };
  s.issues.push(...issues);
}

const matches = (e: Edge, from: string, to: string, branch?: string) =>
  e.source === from && e.target === to && (branch === undefined || e.sourceHandle === branch);

/** An edge from a branch id that a local fix renamed (a duplicate), when the first holder is already wired, goes from the renamed one. */
function followRename(s: State, edge: DesignEdge): DesignEdge {
  const renamed = edge.branch ? s.renamed.get(edge.from)?.get(edge.branch) : undefined;
  if (!renamed || !s.wf.edges.some((e) => e.source === edge.from && e.sourceHandle === edge.branch)) return edge;
  s.fixes.push({ code: "duplicate_branch_id", message: `Edge ${edge.from} -> ${edge.to} leaves from the renamed branch "${renamed}".` });
  return { ...edge, branch: renamed };
}

function removeNode(s: State, id: string, reconnect: boolean) {
  const into = s.wf.edges.filter((e) => e.target === id && e.kind === "forward" && e.source !== id);
  const out = s.wf.edges.filter((e) => e.source === id && e.kind === "forward" && e.target !== id);
  const edges = s.wf.edges.filter((e) => e.source !== id && e.target !== id);
  s.wf = { ...s.wf, nodes: s.wf.nodes.filter((n) => n.id !== id), edges };
  if (!reconnect) return;
  const taken = new Set(edges.map((e) => e.id));
  for (const a of into) {
    for (const b of out) {
      if (edges.some((e) => matches(e, a.source, b.target, a.sourceHandle))) continue;
      s.wf.edges.push({ ...a, id: edgeId(a.source, a.sourceHandle, b.target, taken), target: b.target });
    }
  }
}

function updateNode(s: State, i: number, id: string, set: Partial<DesignNode>) {
  const current = s.wf.nodes.find((n) => n.id === id);
  if (!current) return opIssue(s, i, `node "${id}" does not exist.`);
  const asDesign = toDesign({ ...s.wf, nodes: [current], edges: [] }).design.nodes[0]!;
  const repaired = repairNode({ ...asDesign, ...set, id, kind: current.type }, s.opts.kinds, [], s.fixes);
  set.branches?.forEach((b, k) => {
    const now = repaired.branches?.[k]?.id;
    if (now && now !== b.id) s.renamed.set(id, new Map([...(s.renamed.get(id) ?? []), [b.id, now]]));
  });
  const compiled = compileNode(repaired);
  const parsed = nodeSchema.safeParse({ ...compiled, position: current.position, join: set.join ?? current.join, timeoutMs: current.timeoutMs });
  if (!parsed.success) return opIssue(s, i, `node "${id}" cannot take these changes: ${parsed.error.issues[0]?.message ?? ""}`);
  s.wf = { ...s.wf, nodes: s.wf.nodes.map((n) => (n.id === id ? parsed.data : n)) };
}

function applyAgentOp(s: State, i: number, op: Extract<EditOperation, { op: "add_agent" | "update_agent" | "remove_agent" }>) {
  switch (op.op) {
    case "add_agent":
      if (s.wf.agents.some((a) => a.key === op.agent.key)) return opIssue(s, i, `agent "${op.agent.key}" already exists.`);
      s.wf = { ...s.wf, agents: [...s.wf.agents, compileAgent(op.agent, s.opts.models)] };
      return;
    case "update_agent": {
      const current = s.wf.agents.find((a) => a.key === op.key);
      if (!current) return opIssue(s, i, `agent "${op.key}" does not exist.`);
      const role = op.set.role ?? current.description;
      const merged = compileAgent({ key: op.key, role, instructions: op.set.instructions ?? current.instructions, tools: op.set.tools ?? current.tools.map((t) => t.name), modelClass: op.set.modelClass }, s.opts.models);
      const next = { ...current, ...merged, model: merged.model ?? current.model, name: op.set.role ? merged.name : current.name };
      s.wf = { ...s.wf, agents: s.wf.agents.map((a) => (a.key === op.key ? next : a)) };
      return;
    }
    case "remove_agent":
      if (!s.wf.agents.some((a) => a.key === op.key)) return opIssue(s, i, `agent "${op.key}" does not exist.`);
      s.wf = {
        ...s.wf,
        agents: s.wf.agents.filter((a) => a.key !== op.key),
        nodes: s.wf.nodes.map((n) => (n.type === "orchestrator" ? { ...n, workers: n.workers.filter((w) => w !== op.key) } : n)),
      };
      return;
  }
}

function applyGraphOp(s: State, i: number, op: EditOperation) {
  switch (op.op) {
    case "add_agent":
    case "update_agent":
    case "remove_agent":
      return applyAgentOp(s, i, op);
    case "add_node": {
      const node = newNode(s, i, op.node);
      if (node) s.wf = { ...s.wf, nodes: [...s.wf.nodes, node] };
      return;
    }
    case "update_node":
      return updateNode(s, i, op.id, op.set);
    case "remove_node":
      if (!s.wf.nodes.some((n) => n.id === op.id)) return opIssue(s, i, `node "${op.id}" does not exist.`);
      return removeNode(s, op.id, op.reconnect ?? false);
    case "insert_between": {
      const old = s.wf.edges.filter((e) => matches(e, op.from, op.to, op.branch));
      if (old.length === 0) return opIssue(s, i, `there is no edge from "${op.from}" to "${op.to}" to insert into.`);
      const node = newNode(s, i, op.node);
      if (!node) return;
      s.wf = { ...s.wf, nodes: [...s.wf.nodes, node], edges: s.wf.edges.filter((e) => !old.includes(e)) };
      return addEdges(s, [...old.map((e) => ({ from: e.source, branch: e.sourceHandle, to: node.id })), { from: node.id, to: op.to }]);
    }
    case "add_edge":
      return addEdges(s, [followRename(s, op.edge)]);
    case "remove_edge": {
      const keep = s.wf.edges.filter((e) => !matches(e, op.from, op.to, op.branch));
      if (keep.length === s.wf.edges.length) return opIssue(s, i, `there is no edge from "${op.from}" to "${op.to}".`);
      s.wf = { ...s.wf, edges: keep };
      return;
    }
    case "set_loop_cap": {
      const hit = s.wf.edges.filter((e) => e.kind === "loop" && matches(e, op.from, op.to, op.branch));
      if (hit.length === 0) return opIssue(s, i, `there is no loop edge from "${op.from}" to "${op.to}".`);
      const onExhausted = op.onExhausted;
      s.wf = { ...s.wf, edges: s.wf.edges.map((e) => (hit.includes(e) ? { ...e, maxIterations: op.maxIterations, ...(onExhausted ? { onExhausted } : {}) } : e)) };
      return;
    }
    case "add_input":
      if (s.wf.inputs.some((f) => f.key === op.field.key)) return;
      s.wf = { ...s.wf, inputs: [...s.wf.inputs, { key: op.field.key, type: op.field.type ?? "string", description: op.field.description ?? "", required: true }] };
      return;
    case "set_variable":
      s.wf = { ...s.wf, variables: [...s.wf.variables.filter((v) => v.key !== op.key), { key: op.key, value: op.value, description: "" }] };
      return;
  }
}

/** Applies `ops` in order to `base`; returns the edited document, what could not apply, and local fixes. */
export function applyEdits(base: Workflow, ops: readonly EditOperation[], opts: EditOptions): { workflow: Workflow; issues: DesignIssue[]; fixes: LocalFix[] } {
  const s: State = { wf: structuredClone(base), issues: [], fixes: [], opts, renamed: new Map() };
  ops.forEach((op, i) => applyGraphOp(s, i, op));
  return { workflow: s.wf, issues: s.issues, fixes: s.fixes };
}
