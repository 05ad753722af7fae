import * as z from "zod";
import { renameNodeInExpression } from "./expression";
import {
  agentSpecSchema,
  edgeSchema,
  fieldSchema,
  identifier,
  limitsSchema,
  modelRefSchema,
  nodeSchema,
  variableSchema,
  type Workflow,
  type WorkflowNode,
} from "./schema";
import { renameNodeInTemplate } from "./template";

/**
 * Typed edit operations on a workflow document: the one vocabulary shared by the editor (every user
 * edit), the designer (model-proposed changes, accepted one by one) and version diffs. Applying is
 * pure and immutable; an invalid operation throws an {@link OperationError} naming what is wrong.
 */
const patch = z.record(z.string(), z.unknown());
const index = z.number().int().nonnegative().optional();

/** The operation union (discriminated on `type`), for parsing edits from clients and models. */
export const operationSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("addNode"), node: nodeSchema, index }),
  /** Shallow patch of a node's fields (may change its kind); `unset` removes optional fields. */
  z.object({ type: z.literal("updateNode"), id: z.string(), patch, unset: z.array(z.string()).optional() }),
  /** Removes the node and every edge touching it. */
  z.object({ type: z.literal("removeNode"), id: z.string() }),
  /** Renames a node, rewriting its edges and every {{nodes.<id>…}} / nodes.<id> reference. */
  z.object({ type: z.literal("renameNode"), id: z.string(), newId: identifier }),
  z.object({ type: z.literal("moveNode"), id: z.string(), position: z.object({ x: z.number(), y: z.number() }) }),
  z.object({ type: z.literal("addEdge"), edge: edgeSchema, index }),
  z.object({ type: z.literal("updateEdge"), id: z.string(), patch, unset: z.array(z.string()).optional() }),
  z.object({ type: z.literal("removeEdge"), id: z.string() }),
  z.object({ type: z.literal("addAgent"), agent: agentSpecSchema, index }),
  z.object({ type: z.literal("updateAgent"), key: z.string(), patch, unset: z.array(z.string()).optional() }),
  z.object({ type: z.literal("removeAgent"), key: z.string() }),
  z.object({ type: z.literal("setInputs"), inputs: z.array(fieldSchema) }),
  z.object({ type: z.literal("setOutputs"), outputs: z.array(fieldSchema) }),
  z.object({ type: z.literal("setVariables"), variables: z.array(variableSchema) }),
  z.object({ type: z.literal("setLimits"), limits: limitsSchema }),
  /** Name, description and default model (null removes it); absent fields stay. */
  z.object({
    type: z.literal("setInfo"),
    name: z.string().optional(),
    description: z.string().optional(),
    defaultModel: modelRefSchema.nullable().optional(),
  }),
  /** Puts the listed ids first in this order; unknown ids are ignored, unlisted items keep their order after them. */
  z.object({ type: z.literal("reorder"), collection: z.enum(["nodes", "edges", "agents"]), ids: z.array(z.string()) }),
]);
export type Operation = z.infer<typeof operationSchema>;
export type OperationType = Operation["type"];

/** Why an operation was refused. */
export type OperationErrorCode =
  | "unknown_node"
  | "duplicate_node"
  | "unknown_edge"
  | "duplicate_edge"
  | "unknown_agent"
  | "duplicate_agent"
  | "unknown_endpoint"
  | "invalid_patch";

/** Why an operation cannot apply; `index` is its position when applying a list. */
export class OperationError extends Error {
  constructor(
    readonly code: OperationErrorCode,
    message: string,
    readonly index?: number,
  ) {
    super(message);
    this.name = "OperationError";
  }
}

const insert = <T>(list: readonly T[], item: T, at?: number): T[] =>
  at === undefined || at >= list.length ? [...list, item] : [...list.slice(0, at), item, ...list.slice(at)];

function merge(current: object, p: Record<string, unknown>, unset: readonly string[] = []): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current, ...p };
  for (const key of unset) delete next[key];
  return next;
}

function parsePatched<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
  throw new OperationError("invalid_patch", `The change to ${what} is invalid: ${detail}`);
}

function findNode(doc: Workflow, id: string): WorkflowNode {
  const node = doc.nodes.find((n) => n.id === id);
  if (!node) throw new OperationError("unknown_node", `There is no node "${id}".`);
  return node;
}

function checkEndpoints(doc: Workflow, edge: { id: string; source: string; target: string }): void {
  for (const end of [edge.source, edge.target]) {
    if (!doc.nodes.some((n) => n.id === end))
      throw new OperationError("unknown_endpoint", `Edge "${edge.id}" refers to node "${end}", which does not exist.`);
  }
}

/** A node with its {{nodes.<from>…}} / nodes.<from> references read from `to` (its own id too, when it is `from`). */
export function renameReferences(node: WorkflowNode, from: string, to: string): WorkflowNode {
  return renameInNode(node, from, to);
}

function renameInNode(node: WorkflowNode, from: string, to: string): WorkflowNode {
  const t = (s: string) => renameNodeInTemplate(s, from, to);
  const deep = (v: unknown): unknown =>
    typeof v === "string"
      ? t(v)
      : Array.isArray(v)
        ? v.map(deep)
        : v !== null && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)]))
          : v;
  const id = node.id === from ? to : node.id;
  switch (node.type) {
    case "start":
      return { ...node, id };
    case "agent":
    case "orchestrator":
      return { ...node, id, task: t(node.task) };
    case "router":
      return {
        ...node,
        id,
        prompt: t(node.prompt),
        branches: node.branches.map((b) =>
          b.expression === undefined ? b : { ...b, expression: renameNodeInExpression(b.expression, from, to) },
        ),
      };
    case "tool":
      return { ...node, id, args: deep(node.args) as Record<string, unknown> };
    case "human":
      return { ...node, id, prompt: t(node.prompt) };
    case "subflow":
      return { ...node, id, inputs: Object.fromEntries(Object.entries(node.inputs).map(([k, v]) => [k, t(v)])) };
    case "map":
      return {
        ...node,
        id,
        items: t(node.items),
        body:
          node.body.type === "agent"
            ? { ...node.body, task: t(node.body.task) }
            : { ...node.body, args: deep(node.body.args) as Record<string, unknown> },
      };
    case "end":
      return { ...node, id, outputs: Object.fromEntries(Object.entries(node.outputs).map(([k, v]) => [k, t(v)])) };
    case "abort":
      return { ...node, id, reason: t(node.reason) };
  }
}

function reorder<T>(list: readonly T[], ids: readonly string[], idOf: (x: T) => string): T[] {
  const byId = new Map(list.map((x) => [idOf(x), x]));
  const first = [...new Set(ids)].flatMap((id) => (byId.has(id) ? [byId.get(id) as T] : []));
  const listed = new Set(first.map(idOf));
  return [...first, ...list.filter((x) => !listed.has(idOf(x)))];
}

/** Applies one operation, returning a new document (the input is never mutated). */
export function applyOperation(doc: Workflow, op: Operation): Workflow {
  switch (op.type) {
    case "addNode":
      if (doc.nodes.some((n) => n.id === op.node.id))
        throw new OperationError("duplicate_node", `A node "${op.node.id}" already exists.`);
      return { ...doc, nodes: insert(doc.nodes, op.node, op.index) };
    case "updateNode": {
      const current = findNode(doc, op.id);
      if (op.patch.id !== undefined && op.patch.id !== op.id)
        throw new OperationError("invalid_patch", `Use renameNode to change the id of node "${op.id}".`);
      const next = parsePatched(nodeSchema, merge(current, op.patch, op.unset), `node "${op.id}"`);
      return { ...doc, nodes: doc.nodes.map((n) => (n.id === op.id ? next : n)) };
    }
    case "removeNode":
      findNode(doc, op.id);
      return {
        ...doc,
        nodes: doc.nodes.filter((n) => n.id !== op.id),
        edges: doc.edges.filter((e) => e.source !== op.id && e.target !== op.id),
      };
    case "renameNode":
      return renameNode(doc, op.id, op.newId);
    case "moveNode":
      findNode(doc, op.id);
      return { ...doc, nodes: doc.nodes.map((n) => (n.id === op.id ? { ...n, position: { ...op.position } } : n)) };
    default:
      return applyOther(doc, op);
  }
}

function renameNode(doc: Workflow, id: string, newId: string): Workflow {
  findNode(doc, id);
  if (id === newId) return doc;
  if (doc.nodes.some((n) => n.id === newId))
    throw new OperationError("duplicate_node", `A node "${newId}" already exists.`);
  return {
    ...doc,
    nodes: doc.nodes.map((n) => renameInNode(n, id, newId)),
    agents: doc.agents.map((a) => ({ ...a, instructions: renameNodeInTemplate(a.instructions, id, newId) })),
    edges: doc.edges.map((e) => ({
      ...e,
      source: e.source === id ? newId : e.source,
      target: e.target === id ? newId : e.target,
    })),
  };
}

function applyOther(
  doc: Workflow,
  op: Exclude<Operation, { type: "addNode" | "updateNode" | "removeNode" | "renameNode" | "moveNode" }>,
): Workflow {
  switch (op.type) {
    case "addEdge":
      if (doc.edges.some((e) => e.id === op.edge.id))
        throw new OperationError("duplicate_edge", `An edge "${op.edge.id}" already exists.`);
      checkEndpoints(doc, op.edge);
      return { ...doc, edges: insert(doc.edges, op.edge, op.index) };
    case "updateEdge": {
      const current = doc.edges.find((e) => e.id === op.id);
      if (!current) throw new OperationError("unknown_edge", `There is no edge "${op.id}".`);
      if (op.patch.id !== undefined && op.patch.id !== op.id)
        throw new OperationError("invalid_patch", `The id of edge "${op.id}" cannot change.`);
      const next = parsePatched(edgeSchema, merge(current, op.patch, op.unset), `edge "${op.id}"`);
      checkEndpoints(doc, next);
      return { ...doc, edges: doc.edges.map((e) => (e.id === op.id ? next : e)) };
    }
    case "removeEdge":
      if (!doc.edges.some((e) => e.id === op.id))
        throw new OperationError("unknown_edge", `There is no edge "${op.id}".`);
      return { ...doc, edges: doc.edges.filter((e) => e.id !== op.id) };
    default:
      return applyDocumentLevel(doc, op);
  }
}

function applyDocumentLevel(
  doc: Workflow,
  op: Extract<Operation, { type: `${"add" | "update" | "remove"}Agent` | `set${string}` | "reorder" }>,
): Workflow {
  switch (op.type) {
    case "addAgent":
      if (doc.agents.some((a) => a.key === op.agent.key))
        throw new OperationError("duplicate_agent", `An agent "${op.agent.key}" already exists.`);
      return { ...doc, agents: insert(doc.agents, op.agent, op.index) };
    case "updateAgent": {
      const current = doc.agents.find((a) => a.key === op.key);
      if (!current) throw new OperationError("unknown_agent", `There is no agent "${op.key}".`);
      if (op.patch.key !== undefined && op.patch.key !== op.key)
        throw new OperationError("invalid_patch", `The key of agent "${op.key}" cannot change.`);
      const next = parsePatched(agentSpecSchema, merge(current, op.patch, op.unset), `agent "${op.key}"`);
      return { ...doc, agents: doc.agents.map((a) => (a.key === op.key ? next : a)) };
    }
    case "removeAgent":
      if (!doc.agents.some((a) => a.key === op.key))
        throw new OperationError("unknown_agent", `There is no agent "${op.key}".`);
      return { ...doc, agents: doc.agents.filter((a) => a.key !== op.key) };
    case "setInputs":
      return { ...doc, inputs: op.inputs };
    case "setOutputs":
      return { ...doc, outputs: op.outputs };
    case "setVariables":
      return { ...doc, variables: op.variables };
    case "setLimits":
      return { ...doc, limits: op.limits };
    case "setInfo": {
      const { defaultModel: _old, ...rest } = doc;
      const model = op.defaultModel === undefined ? doc.defaultModel : (op.defaultModel ?? undefined);
      return {
        ...rest,
        name: op.name ?? doc.name,
        description: op.description ?? doc.description,
        ...(model ? { defaultModel: model } : {}),
      };
    }
    case "reorder":
      if (op.collection === "nodes") return { ...doc, nodes: reorder(doc.nodes, op.ids, (n) => n.id) };
      if (op.collection === "edges") return { ...doc, edges: reorder(doc.edges, op.ids, (e) => e.id) };
      return { ...doc, agents: reorder(doc.agents, op.ids, (a) => a.key) };
  }
}

/** Applies operations in order; an invalid one throws an OperationError carrying its index. */
export function applyOperations(doc: Workflow, ops: readonly Operation[]): Workflow {
  return ops.reduce((current, op, i) => {
    try {
      return applyOperation(current, op);
    } catch (e) {
      if (e instanceof OperationError)
        throw new OperationError(e.code, `Operation ${i + 1} (${op.type}): ${e.message}`, i);
      throw e;
    }
  }, doc);
}

/** Non-throwing {@link applyOperations} for request handlers and the designer's repair loop. */
export function tryApplyOperations(
  doc: Workflow,
  ops: readonly Operation[],
): { ok: true; workflow: Workflow } | { ok: false; error: OperationError } {
  try {
    return { ok: true, workflow: applyOperations(doc, ops) };
  } catch (e) {
    if (e instanceof OperationError) return { ok: false, error: e };
    throw e;
  }
}
