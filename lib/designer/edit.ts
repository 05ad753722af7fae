import { OperationError, applyOperation, type Operation } from "@/lib/workflow/operations";
import { nodeSchema, type Edge, type Workflow, type WorkflowNode } from "@/lib/workflow/schema";
import { compileAgent, compileEdges, compileNode, edgeId, toDesign, type DesignIssue, type ModelClassMap } from "./compile";
import { repairEdges, repairNode, slug, type LocalFix } from "./repair";
import type { DesignEdge, DesignNode, EditOperation } from "./schemas";

/**
 * Applies the model's edit operations to an existing document. Each one is translated into
 * lib/workflow's typed operations (the vocabulary the editor and version diffs share) and applied
 * with `applyOperation`. Untouched nodes and edges keep their ids and positions; an operation that
 * cannot apply becomes an issue (fed back to the model), never a silent partial rewrite.
 */

export interface EditOptions {
  kinds: readonly string[];
  models?: ModelClassMap;
}

/** `renamed`: per node, duplicate branch ids renamed by a local fix (old → new), for later add_edge ops. */
type State = { wf: Workflow; issues: DesignIssue[]; fixes: LocalFix[]; opts: EditOptions; renamed: Map<string, Map<string, string>>; applied: Operation[] };

const opIssue = (s: State, i: number, message: string) => s.issues.push({ code: "invalid_operation", message: `Operation ${i + 1}: ${message}` });

/** Applies lib/workflow operations all or nothing; a failure becomes an issue of operation `i`. */
function apply(s: State, i: number, ops: Operation[]): boolean {
  try {
    const wf = ops.reduce(applyOperation, s.wf);
    s.wf = wf;
    s.applied.push(...ops);
    return true;
  } catch (e) {
    if (!(e instanceof OperationError)) throw e;
    opIssue(s, i, e.message);
    return false;
  }
}

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

/** Design edges → addEdge operations (ends resolved, caps applied; dangling ones become issues). */
function edgeOps(s: State, edges: DesignEdge[], nodes: WorkflowNode[] = s.wf.nodes): Operation[] {
  const repaired = repairEdges(edges, toDesign({ ...s.wf, nodes }).design.nodes, s.wf.limits.maxIterationsPerLoop, s.fixes);
  const { edges: out, issues } = compileEdges(repaired, nodes, new Set(s.wf.edges.map((e) => e.id)));
  s.issues.push(...issues);
  return out.map((edge) => ({ type: "addEdge", edge }));
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

/** removeNode, plus (reconnect) an edge from each forward predecessor outcome to each forward successor. */
function removeNodeOps(s: State, id: string, reconnect: boolean): Operation[] {
  const ops: Operation[] = [{ type: "removeNode", id }];
  if (!reconnect) return ops;
  const into = s.wf.edges.filter((e) => e.target === id && e.kind === "forward" && e.source !== id);
  const out = s.wf.edges.filter((e) => e.source === id && e.kind === "forward" && e.target !== id);
  const taken = new Set(s.wf.edges.map((e) => e.id));
  for (const a of into) {
    for (const b of out) {
      if (s.wf.edges.some((e) => matches(e, a.source, b.target, a.sourceHandle))) continue;
      ops.push({ type: "addEdge", edge: { ...a, id: edgeId(a.source, a.sourceHandle, b.target, taken), target: b.target } });
    }
  }
  return ops;
}

/**
 * A subflow's `args` in update_node: keys given replace the current ones (`inputs` as a whole), the
 * others stay; a new workflowId drops a pinned version unless one is given with it.
 */
function subflowArgsUpdate(current: Record<string, unknown> = {}, set: Record<string, unknown>): Record<string, unknown> {
  const { version: _pinned, ...unpinned } = current;
  const switched = typeof set.workflowId === "string" && set.workflowId !== current.workflowId;
  return { ...(switched ? unpinned : current), ...set };
}

/** The document fields a design field sets: a subflow carries workflowId, inputs and version in `args`. */
const SUBFLOW_ARG_FIELDS = ["workflowId", "inputs", "version"];
const fieldsOf = (kind: string, key: string) => (kind === "subflow" && key === "args" ? SUBFLOW_ARG_FIELDS : [key]);

function updateNodeOps(s: State, i: number, id: string, set: Partial<DesignNode>): Operation[] | undefined {
  const current = s.wf.nodes.find((n) => n.id === id);
  if (!current) return void opIssue(s, i, `node "${id}" does not exist.`);
  const asDesign = toDesign({ ...s.wf, nodes: [current], edges: [] }).design.nodes[0]!;
  const args = current.type === "subflow" && set.args ? { args: subflowArgsUpdate(asDesign.args, set.args) } : {};
  const repaired = repairNode({ ...asDesign, ...set, ...args, id, kind: current.type }, s.opts.kinds, [], s.fixes);
  set.branches?.forEach((b, k) => {
    const now = repaired.branches?.[k]?.id;
    if (now && now !== b.id) s.renamed.set(id, new Map([...(s.renamed.get(id) ?? []), [b.id, now]]));
  });
  const compiled = compileNode(repaired) as Record<string, unknown>;
  const fields = Object.keys(set).flatMap((k) => fieldsOf(current.type, k));
  const patch = Object.fromEntries(fields.filter((k) => k in compiled).map((k) => [k, compiled[k]]));
  const unset = current.type === "subflow" ? fields.filter((k) => k === "version" && !(k in compiled) && k in current) : [];
  return [{ type: "updateNode", id, patch, ...(unset.length ? { unset } : {}) }];
}

function agentOps(s: State, i: number, op: Extract<EditOperation, { op: "add_agent" | "update_agent" | "remove_agent" }>): Operation[] | undefined {
  switch (op.op) {
    case "add_agent":
      return [{ type: "addAgent", agent: compileAgent(op.agent, s.opts.models) }];
    case "update_agent": {
      const current = s.wf.agents.find((a) => a.key === op.key);
      if (!current) return void opIssue(s, i, `agent "${op.key}" does not exist.`);
      const role = op.set.role ?? current.description;
      const merged = compileAgent({ key: op.key, role, instructions: op.set.instructions ?? current.instructions, tools: op.set.tools ?? current.tools.map((t) => t.name), modelClass: op.set.modelClass }, s.opts.models);
      const patch = { description: merged.description, instructions: merged.instructions, tools: merged.tools, ...(op.set.role ? { name: merged.name } : {}), ...(merged.model ? { model: merged.model } : {}) };
      return [{ type: "updateAgent", key: op.key, patch }];
    }
    case "remove_agent": {
      const workers = s.wf.nodes.filter((n) => n.type === "orchestrator" && n.workers.includes(op.key));
      return [
        ...workers.map((n): Operation => ({ type: "updateNode", id: n.id, patch: { workers: n.type === "orchestrator" ? n.workers.filter((w) => w !== op.key) : [] } })),
        { type: "removeAgent", key: op.key },
      ];
    }
  }
}

function insertOps(s: State, i: number, op: Extract<EditOperation, { op: "insert_between" }>): Operation[] | undefined {
  const old = s.wf.edges.filter((e) => matches(e, op.from, op.to, op.branch));
  if (old.length === 0) return void opIssue(s, i, `there is no edge from "${op.from}" to "${op.to}" to insert into.`);
  const node = newNode(s, i, op.node);
  if (!node) return undefined;
  const edges = [...old.map((e) => ({ from: e.source, branch: e.sourceHandle, to: node.id })), { from: node.id, to: op.to }];
  return [...old.map((e): Operation => ({ type: "removeEdge", id: e.id })), { type: "addNode", node }, ...edgeOps(s, edges, [...s.wf.nodes, node])];
}

/** The lib/workflow operations of one design-level edit (undefined: it cannot apply, an issue says why). */
function translate(s: State, i: number, op: EditOperation): Operation[] | undefined {
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
    case "remove_node":
      return removeNodeOps(s, op.id, op.reconnect ?? false);
    case "insert_between":
      return insertOps(s, i, op);
    case "add_edge":
      return edgeOps(s, [followRename(s, op.edge)]);
    case "remove_edge": {
      const hit = s.wf.edges.filter((e) => matches(e, op.from, op.to, op.branch));
      if (hit.length === 0) return void opIssue(s, i, `there is no edge from "${op.from}" to "${op.to}".`);
      return hit.map((e) => ({ type: "removeEdge", id: e.id }));
    }
    case "set_loop_cap": {
      const hit = s.wf.edges.filter((e) => e.kind === "loop" && matches(e, op.from, op.to, op.branch));
      if (hit.length === 0) return void opIssue(s, i, `there is no loop edge from "${op.from}" to "${op.to}".`);
      return hit.map((e) => ({ type: "updateEdge", id: e.id, patch: { maxIterations: op.maxIterations, ...(op.onExhausted ? { onExhausted: op.onExhausted } : {}) } }));
    }
    case "add_input":
      if (s.wf.inputs.some((f) => f.key === op.field.key)) return [];
      return [{ type: "setInputs", inputs: [...s.wf.inputs, { key: op.field.key, type: op.field.type ?? "string", description: op.field.description ?? "", required: true }] }];
    case "set_variable":
      return [{ type: "setVariables", variables: [...s.wf.variables.filter((v) => v.key !== op.key), { key: op.key, value: op.value, description: "" }] }];
  }
}

/**
 * Applies `ops` in order to `base`; returns the edited document, the lib/workflow operations that
 * produced it, what could not apply, and the local fixes made on the way.
 */
export function applyEdits(base: Workflow, ops: readonly EditOperation[], opts: EditOptions): { workflow: Workflow; operations: Operation[]; issues: DesignIssue[]; fixes: LocalFix[] } {
  const s: State = { wf: base, issues: [], fixes: [], opts, renamed: new Map(), applied: [] };
  ops.forEach((op, i) => {
    const translated = translate(s, i, op);
    if (translated) apply(s, i, translated);
  });
  return { workflow: s.wf, operations: s.applied, issues: s.issues, fixes: s.fixes };
}
