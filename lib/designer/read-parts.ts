import * as z from "zod";
import { fieldTypes } from "@/lib/workflow/schema";
import { modelClasses, type DesignNode } from "./schemas";

/**
 * The lenient readers of answer parts (read.ts): nulls (strict mode's "absent") and unknown fields
 * dropped, numbers read as text where text is expected, a map as an object or a {key, value} list, a
 * list item that is not one skipped, common aliases read (`type` for `kind`, `source`/`target` for an
 * edge's ends, "a -> b" for an edge).
 */

export const noNull = (v: unknown) => (v === null ? undefined : v);
export const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const scalarText = (v: unknown) => (typeof v === "number" || typeof v === "boolean" ? String(v) : v);

/** Optional text: numbers and booleans as text, anything else dropped. */
export const text = z.preprocess((v) => scalarText(noNull(v)), z.string().optional()).catch(undefined);
const flag = z.preprocess(noNull, z.boolean().optional()).catch(undefined);
const count = z
  .preprocess(
    (v) => (typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : noNull(v)),
    z.number().int().optional(),
  )
  .catch(undefined);
export const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** The first defined of several aliases of a field. */
export const pick = (o: Record<string, unknown>, ...keys: string[]) =>
  keys.map((k) => noNull(o[k])).find((v) => v !== undefined);

/** Items of a list that parse (others skipped); one object counts as a list of one. */
export function list<T>(item: z.ZodType<T>) {
  return z
    .unknown()
    .transform((v) => (v == null ? [] : Array.isArray(v) ? v : [v]))
    .transform((xs) =>
      xs.flatMap((x) => {
        const r = item.safeParse(x);
        return r.success && r.data !== undefined ? [r.data] : [];
      }),
    );
}

/** A map given as an object, a [{key, value}] list or a [[key, value]] list; values kept as they are. */
export function toRecord(v: unknown): Record<string, unknown> | undefined {
  if (isObj(v)) return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined));
  if (!Array.isArray(v)) return undefined;
  const pairs = v.flatMap((x): [string, unknown][] => {
    if (Array.isArray(x) && x.length === 2 && typeof x[0] === "string") return [[x[0], x[1]]];
    if (isObj(x) && typeof x.key === "string" && x.value !== null) return [[x.key, x.value]];
    return [];
  });
  return Object.fromEntries(pairs);
}

const templates = z.unknown().transform((v) => {
  const r = toRecord(noNull(v));
  return r && Object.fromEntries(Object.entries(r).map(([k, x]) => [k, typeof x === "string" ? x : JSON.stringify(x)]));
});
const anyRecord = z.unknown().transform((v) => toRecord(noNull(v)));
const nameOf = z.unknown().transform((v) => text.parse(isObj(v) ? pick(v, "name", "key", "id") : v));
const names = list(nameOf.pipe(z.string().min(1)));

const branch = z.unknown().transform((v) => {
  if (!isObj(v)) return text.parse(v) === undefined ? undefined : { id: text.parse(v)! };
  const id = text.parse(pick(v, "id", "name", "label", "branch"));
  const condition = text.parse(pick(v, "condition", "description", "when"));
  return id === undefined ? undefined : { id, ...(condition !== undefined ? { condition } : {}) };
});

const JOIN = z.enum(["all", "any"]).optional().catch(undefined);
const ITEM_ERROR = z.enum(["fail", "skip", "collect"]).optional().catch(undefined);

/** One node: every design field that parses (which apply to its kind is the repairs' business). */
export const nodeReader = z.unknown().transform((v): DesignNode | undefined => {
  if (typeof v === "string") return { id: v, kind: "" };
  if (!isObj(v)) return undefined;
  const t = (...keys: string[]) => text.parse(pick(v, ...keys));
  const node: DesignNode = {
    id: t("id", "node_id", "nodeId") ?? t("name") ?? "",
    kind: t("kind", "type", "node_type") ?? "",
  };
  const fields: Partial<DesignNode> = {
    name: t("name", "label"),
    agent: nameOf.parse(pick(v, "agent", "agent_key", "agentKey")),
    task: t("task", "instruction"),
    prompt: t("prompt", "question"),
    tool: nameOf.parse(pick(v, "tool", "tool_name", "toolName")),
    reason: t("reason"),
    workflowId: t("workflowId", "workflow_id"),
    version: count.parse(v.version),
    items: t("items", "over", "list"),
    concurrency: count.parse(pick(v, "concurrency", "parallel")),
    onItemError: ITEM_ERROR.parse(noNull(pick(v, "onItemError", "on_item_error"))),
    join: JOIN.parse(noNull(v.join)),
    ...(v.branches !== undefined ? { branches: list(branch).parse(v.branches) } : {}),
    ...(v.workers !== undefined ? { workers: names.parse(v.workers) } : {}),
    ...(v.args !== undefined || v.arguments !== undefined
      ? { args: anyRecord.parse(pick(v, "args", "arguments")) }
      : {}),
    ...(v.inputs !== undefined ? { inputs: templates.parse(v.inputs) } : {}),
    ...(v.outputs !== undefined ? { outputs: templates.parse(v.outputs) } : {}),
  };
  for (const [k, x] of Object.entries(fields)) if (x !== undefined) (node as Record<string, unknown>)[k] = x;
  return node;
});

/** One edge: {from, branch?, to, loop?, …}, or "a -> b" / "a.branch -> b". */
export const edgeReader = z.unknown().transform((v) => {
  if (typeof v === "string") {
    const m = /^\s*([^\s.>~-]+)(?:\.([^\s>~-]+))?\s*(?:->|=>|>|→)\s*(\S+)\s*$/.exec(v);
    return m ? { from: m[1]!, ...(m[2] ? { branch: m[2] } : {}), to: m[3]! } : undefined;
  }
  if (!isObj(v)) return undefined;
  const from = nameOf.parse(pick(v, "from", "source", "src"));
  const to = nameOf.parse(pick(v, "to", "target", "dest"));
  if (from === undefined || to === undefined) return undefined;
  const loop = flag.parse(v.loop) ?? (v.kind === "loop" || v.type === "loop" ? true : undefined);
  const onExhausted = z
    .enum(["continue", "abort"])
    .optional()
    .catch(undefined)
    .parse(noNull(pick(v, "onExhausted", "on_exhausted")));
  const maxIterations = count.parse(pick(v, "maxIterations", "max_iterations"));
  const branchId = text.parse(pick(v, "branch", "sourceHandle", "handle", "outcome"));
  return {
    from,
    to,
    ...(branchId !== undefined ? { branch: branchId } : {}),
    ...(loop !== undefined ? { loop } : {}),
    ...(maxIterations !== undefined ? { maxIterations } : {}),
    ...(onExhausted ? { onExhausted } : {}),
  };
});

export const fieldReader = z.unknown().transform((v) => {
  if (typeof v === "string") return { key: v };
  if (!isObj(v)) return undefined;
  const key = text.parse(pick(v, "key", "name", "id"));
  const type = z.enum(fieldTypes).optional().catch(undefined).parse(noNull(v.type));
  const description = text.parse(v.description);
  return key === undefined
    ? undefined
    : { key, ...(type ? { type } : {}), ...(description !== undefined ? { description } : {}) };
});

/** One agent of the profile (or of add_agent / update_agent). */
export const agentReader = z.unknown().transform((v) => {
  if (typeof v === "string") return { key: v, role: v, instructions: "" };
  if (!isObj(v)) return undefined;
  const t = (...keys: string[]) => text.parse(pick(v, ...keys));
  const key = t("key", "id", "name") ?? "";
  const modelClass = z
    .enum(modelClasses)
    .optional()
    .catch(undefined)
    .parse(noNull(pick(v, "modelClass", "model_class")));
  const tools = v.tools !== undefined ? names.parse(v.tools) : undefined;
  const reuse = t("reuse", "savedAgentId", "saved_agent_id");
  return {
    key,
    role: t("role", "description", "name") ?? key,
    instructions: t("instructions", "prompt", "system_prompt", "system") ?? "",
    ...(modelClass ? { modelClass } : {}),
    ...(tools ? { tools } : {}),
    ...(reuse ? { reuse } : {}),
  };
});

export const toolNeeded = z.unknown().transform((v) => {
  const name = nameOf.parse(v);
  const purpose = isObj(v) ? text.parse(pick(v, "purpose", "description")) : undefined;
  return name ? { name, ...(purpose ? { purpose } : {}) } : undefined;
});

export const variableReader = z.unknown().transform((v) => {
  if (!isObj(v)) return undefined;
  const key = text.parse(pick(v, "key", "name"));
  const value = scalar.optional().catch(undefined).parse(noNull(v.value));
  return key === undefined || value === undefined ? undefined : { key, value };
});
