import { deepEqual } from "./equal";
import { applyOperations, type Operation } from "./operations";
import type { Edge, Workflow } from "./schema";

/**
 * diff(a, b): the operations that turn `a` into `b`, grouped per node so the designer can offer
 * change-by-change acceptance and the editor can show a version diff. Each group applies on its own
 * after the groups before it; edge changes sit in the group of whichever endpoint comes last, so a
 * group never refers to a node a later group adds. Round trip: applyOperations(a, diff(a, b)) equals b
 * (for documents whose edges all connect existing nodes).
 */
export type OperationGroup = {
  /** "workflow", "node:<id>" or "order". */
  key: string;
  nodeId?: string;
  label: string;
  ops: Operation[];
};

type Patch = { patch: Record<string, unknown>; unset: string[] };

/** Changed fields (values from `next`) and fields `next` no longer has. */
function patchOf(prev: object, next: object): Patch | undefined {
  const p = prev as Record<string, unknown>;
  const n = next as Record<string, unknown>;
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(n)) if (v !== undefined && !deepEqual(p[k], v)) patch[k] = v;
  const unset = Object.keys(p).filter((k) => p[k] !== undefined && n[k] === undefined);
  return Object.keys(patch).length === 0 && unset.length === 0 ? undefined : { patch, unset };
}

function withUnset<T extends Operation>(op: T, unset: string[]): T {
  return unset.length > 0 ? { ...op, unset } : op;
}

function workflowGroup(a: Workflow, b: Workflow): Operation[] {
  const ops: Operation[] = [];
  const info: Extract<Operation, { type: "setInfo" }> = { type: "setInfo" };
  if (a.name !== b.name) info.name = b.name;
  if (a.description !== b.description) info.description = b.description;
  if (!deepEqual(a.defaultModel, b.defaultModel)) info.defaultModel = b.defaultModel ?? null;
  if (Object.keys(info).length > 1) ops.push(info);
  if (!deepEqual(a.inputs, b.inputs)) ops.push({ type: "setInputs", inputs: b.inputs });
  if (!deepEqual(a.outputs, b.outputs)) ops.push({ type: "setOutputs", outputs: b.outputs });
  if (!deepEqual(a.variables, b.variables)) ops.push({ type: "setVariables", variables: b.variables });
  if (!deepEqual(a.limits, b.limits)) ops.push({ type: "setLimits", limits: b.limits });
  const inB = new Set(b.agents.map((x) => x.key));
  for (const agent of a.agents) if (!inB.has(agent.key)) ops.push({ type: "removeAgent", key: agent.key });
  for (const agent of b.agents) {
    const prev = a.agents.find((x) => x.key === agent.key);
    const change = prev && patchOf(prev, agent);
    if (!prev) ops.push({ type: "addAgent", agent });
    else if (change) ops.push(withUnset({ type: "updateAgent", key: agent.key, patch: change.patch }, change.unset));
  }
  return ops;
}

function nodeOps(a: Workflow, node: Workflow["nodes"][number]): Operation[] {
  const prev = a.nodes.find((n) => n.id === node.id);
  if (!prev) return [{ type: "addNode", node }];
  const change = patchOf(prev, node);
  if (!change) return [];
  const keys = Object.keys(change.patch);
  if (change.unset.length === 0 && keys.length === 1 && keys[0] === "position" && node.position) {
    return [{ type: "moveNode", id: node.id, position: node.position }];
  }
  return [withUnset({ type: "updateNode", id: node.id, patch: change.patch }, change.unset)];
}

function edgeOps(
  a: Workflow,
  b: Workflow,
  removedNodes: Set<string>,
): { removals: Map<string, Operation[]>; changes: Map<string, Operation[]> } {
  const order = new Map(b.nodes.map((n, i) => [n.id, i]));
  const gone = (e: Edge) => removedNodes.has(e.source) || removedNodes.has(e.target);
  const removals = new Map<string, Operation[]>();
  const changes = new Map<string, Operation[]>();
  const add = (map: Map<string, Operation[]>, key: string, op: Operation) =>
    map.set(key, [...(map.get(key) ?? []), op]);
  const bIds = new Set(b.edges.map((e) => e.id));
  for (const edge of a.edges)
    if (!bIds.has(edge.id) && !gone(edge)) add(removals, edge.source, { type: "removeEdge", id: edge.id });
  for (const edge of b.edges) {
    const owner = (order.get(edge.target) ?? -1) > (order.get(edge.source) ?? -1) ? edge.target : edge.source;
    const prev = a.edges.find((e) => e.id === edge.id);
    if (!prev || gone(prev)) {
      add(changes, owner, { type: "addEdge", edge });
      continue;
    }
    const change = patchOf(prev, edge);
    if (change) add(changes, owner, withUnset({ type: "updateEdge", id: edge.id, patch: change.patch }, change.unset));
  }
  return { removals, changes };
}

function label(nodeId: string, ops: Operation[]): string {
  const main = ops.find(
    (o) => o.type === "addNode" || o.type === "updateNode" || o.type === "moveNode" || o.type === "removeNode",
  );
  const verb = { addNode: "Add", updateNode: "Change", moveNode: "Move", removeNode: "Remove" } as Record<
    string,
    string
  >;
  return main ? `${verb[main.type]} node "${nodeId}"` : `Rewire node "${nodeId}"`;
}

function orderGroup(a: Workflow, b: Workflow, ops: Operation[]): Operation[] {
  const after = applyOperations(a, ops);
  const out: Operation[] = [];
  const same = (x: string[], y: string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  if (
    !same(
      after.nodes.map((n) => n.id),
      b.nodes.map((n) => n.id),
    )
  )
    out.push({ type: "reorder", collection: "nodes", ids: b.nodes.map((n) => n.id) });
  if (
    !same(
      after.edges.map((e) => e.id),
      b.edges.map((e) => e.id),
    )
  )
    out.push({ type: "reorder", collection: "edges", ids: b.edges.map((e) => e.id) });
  if (
    !same(
      after.agents.map((x) => x.key),
      b.agents.map((x) => x.key),
    )
  )
    out.push({ type: "reorder", collection: "agents", ids: b.agents.map((x) => x.key) });
  return out;
}

/** The grouped diff: workflow-level changes, removed nodes, then one group per node of `b` in order. */
export function diffGrouped(a: Workflow, b: Workflow): OperationGroup[] {
  const groups: OperationGroup[] = [];
  const settings = workflowGroup(a, b);
  if (settings.length > 0) groups.push({ key: "workflow", label: "Workflow settings and agents", ops: settings });
  const bIds = new Set(b.nodes.map((n) => n.id));
  const removed = new Set(a.nodes.filter((n) => !bIds.has(n.id)).map((n) => n.id));
  for (const id of removed)
    groups.push({ key: `node:${id}`, nodeId: id, label: `Remove node "${id}"`, ops: [{ type: "removeNode", id }] });
  const { removals, changes } = edgeOps(a, b, removed);
  for (const node of b.nodes) {
    const ops = [...(removals.get(node.id) ?? []), ...nodeOps(a, node), ...(changes.get(node.id) ?? [])];
    if (ops.length > 0) groups.push({ key: `node:${node.id}`, nodeId: node.id, label: label(node.id, ops), ops });
  }
  const reorder = orderGroup(
    a,
    b,
    groups.flatMap((g) => g.ops),
  );
  if (reorder.length > 0) groups.push({ key: "order", label: "Order of nodes, edges and agents", ops: reorder });
  return groups;
}

/** The operations that turn `a` into `b`, in an order that applies cleanly (see {@link diffGrouped}). */
export function diffDocuments(a: Workflow, b: Workflow): Operation[] {
  return diffGrouped(a, b).flatMap((g) => g.ops);
}
