import * as z from "zod";
import { fix, type LocalFix } from "./fixes";
import { agentReader, edgeReader, isObj, noNull, nodeReader, text } from "./read-parts";
import { resolveRef } from "./resolve";
import { operationNames, type DesignNode, type EditOperation } from "./schemas";

/**
 * Reads one edit operation leniently: the op name by exact, synonym or closest match; the object an
 * op carries (`agent`, `node`, `edge`, `set`, `field`) either nested or written inline beside `op`.
 * An operation that names nothing usable is skipped (and reported).
 */

const OP_SYNONYMS: Record<string, EditOperation["op"]> = {
  create_agent: "add_agent",
  new_agent: "add_agent",
  edit_agent: "update_agent",
  modify_agent: "update_agent",
  delete_agent: "remove_agent",
  create_node: "add_node",
  new_node: "add_node",
  edit_node: "update_node",
  modify_node: "update_node",
  delete_node: "remove_node",
  insert_node: "insert_between",
  connect: "add_edge",
  create_edge: "add_edge",
  delete_edge: "remove_edge",
  disconnect: "remove_edge",
  set_max_iterations: "set_loop_cap",
  add_field: "add_input",
  set_var: "set_variable",
  add_variable: "set_variable",
};

function opName(raw: string): EditOperation["op"] | undefined {
  const known = operationNames.find((n) => n === raw);
  if (known) return known;
  const synonym = OP_SYNONYMS[raw.toLowerCase().replace(/[^a-z]+/g, "_")];
  if (synonym) return synonym;
  const hit = resolveRef(
    raw,
    operationNames.map((id) => ({ id })),
  );
  return hit?.id as EditOperation["op"] | undefined;
}

/** The object an op carries: nested under `key`, else the op's own other fields. */
function carried(o: Record<string, unknown>, key: string): unknown {
  const nested = noNull(o[key]);
  if (nested !== undefined) return nested;
  const { op: _op, type: _type, action: _action, ...rest } = o;
  return rest;
}

const ids = (o: Record<string, unknown>, ...keys: string[]) =>
  keys.map((k) => text.parse(o[k])).find((v) => v !== undefined);
const scalar = z.union([z.string(), z.number(), z.boolean()]);
const cap = z
  .preprocess((v) => (typeof v === "string" ? Number(v) : v), z.number().int())
  .optional()
  .catch(undefined);

function ref(o: Record<string, unknown>) {
  const edge = edgeReader.parse(o);
  return edge ? { from: edge.from, to: edge.to, ...(edge.branch ? { branch: edge.branch } : {}) } : undefined;
}

/** A node's changed fields: what parses as a node, minus id and kind. */
function nodeSet(v: unknown): Partial<DesignNode> {
  const node = nodeReader.parse(isObj(v) ? { ...v, id: "x", kind: "" } : v);
  if (!node) return {};
  const { id: _id, kind: _kind, ...set } = node;
  if (isObj(v) && !("name" in v || "label" in v)) delete set.name;
  return set;
}

function build(op: EditOperation["op"], o: Record<string, unknown>): EditOperation | undefined {
  switch (op) {
    case "add_agent": {
      const agent = agentReader.parse(carried(o, "agent"));
      return agent?.key ? { op, agent } : undefined;
    }
    case "update_agent": {
      const key = ids(o, "key", "agent", "id");
      const { op: _op, key: _k, agent: _a, id: _i, ...inline } = o;
      const given = isObj(o.set) ? o.set : inline;
      const agent = agentReader.parse({ ...given, key: "x" });
      if (!key || !agent) return undefined;
      const { key: _key, ...set } = agent;
      if (!("role" in given || "description" in given || "name" in given)) delete (set as Partial<typeof set>).role;
      if (!("instructions" in given || "prompt" in given || "system" in given))
        delete (set as Partial<typeof set>).instructions;
      return { op, key, set };
    }
    case "remove_agent": {
      const key = ids(o, "key", "agent", "id");
      return key ? { op, key } : undefined;
    }
    case "add_node": {
      const node = nodeReader.parse(carried(o, "node"));
      return node ? { op, node } : undefined;
    }
    case "update_node": {
      const id = ids(o, "id", "node", "node_id", "nodeId");
      return id
        ? { op, id, set: nodeSet(carried(o, "set") === o ? { ...o, id: undefined } : carried(o, "set")) }
        : undefined;
    }
    case "remove_node": {
      const id = ids(o, "id", "node", "node_id", "nodeId");
      return id ? { op, id, ...(o.reconnect === true ? { reconnect: true } : {}) } : undefined;
    }
    case "insert_between": {
      const node = nodeReader.parse(o.node);
      const ends = ref(o);
      return node && ends ? { op, node, ...ends } : undefined;
    }
    case "add_edge": {
      const edge = edgeReader.parse(carried(o, "edge"));
      return edge ? { op, edge } : undefined;
    }
    case "remove_edge": {
      const ends = ref(o);
      return ends ? { op, ...ends } : undefined;
    }
    case "set_loop_cap": {
      const ends = ref(o);
      const maxIterations = cap.parse(o.maxIterations ?? o.max_iterations);
      const onExhausted = z.enum(["continue", "abort"]).optional().catch(undefined).parse(noNull(o.onExhausted));
      return ends && maxIterations !== undefined
        ? { op, ...ends, maxIterations, ...(onExhausted ? { onExhausted } : {}) }
        : undefined;
    }
    case "add_input": {
      const field = carried(o, "field");
      const key = isObj(field) ? text.parse(field.key ?? field.name) : text.parse(field);
      const type = isObj(field)
        ? z.enum(["string", "text", "number", "boolean", "json"]).optional().catch(undefined).parse(field.type)
        : undefined;
      const description = isObj(field) ? text.parse(field.description) : undefined;
      return key
        ? { op, field: { key, ...(type ? { type } : {}), ...(description ? { description } : {}) } }
        : undefined;
    }
    case "set_variable": {
      const key = ids(o, "key", "name");
      const value = scalar.optional().catch(undefined).parse(noNull(o.value));
      return key && value !== undefined ? { op, key, value } : undefined;
    }
  }
}

/** One operation, or undefined (reported in `fixes`) when it names no known op or lacks what it needs. */
export function readOperation(raw: unknown, index: number, fixes: LocalFix[]): EditOperation | undefined {
  if (!isObj(raw)) return undefined;
  const given = text.parse(raw.op ?? raw.type ?? raw.action) ?? "";
  const op = opName(given);
  if (!op) {
    fixes.push(
      fix(
        "operation_dropped",
        `Operation ${index + 1} ("${given}") is not an operation: skipped.`,
        "invalid_operation",
      ),
    );
    return undefined;
  }
  if (op !== given)
    fixes.push(fix("operation_fixed", `Operation ${index + 1}: "${given}" read as "${op}".`, "invalid_operation"));
  const built = build(op, raw);
  if (!built)
    fixes.push(
      fix(
        "operation_dropped",
        `Operation ${index + 1} (${op}) names nothing to apply it to: skipped.`,
        "invalid_operation",
      ),
    );
  return built;
}
