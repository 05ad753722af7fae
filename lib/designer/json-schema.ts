import * as z from "zod";
import { toStrictSchema, type JsonSchema } from "@/lib/llm/strict-schema";
import type { EditBase, WireContext } from "./wire";
import { designWireSchema, editWireSchema } from "./wire";
import { SCHEMA_NAMES } from "./schemas";

/**
 * The JSON schemas a structured call carries: `loose` (ordinary JSON schema: tools, JSON mode, JSON
 * in text) and `strict` (OpenAI strict json_schema: every property required or nullable, maps as
 * {key, value} lists). Both come from the zod wire schemas (wire.ts), so from lib/workflow.
 */
export interface WireSchemas {
  /** Schema name (response_format name / forced tool name; fixtures of the scripted model match on it). */
  name: string;
  loose: JsonSchema;
  strict: JsonSchema;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** zod's JSON schema made provider-friendly: no $schema, unions as anyOf, no ±2^53 integer bounds, no propertyNames. */
export function cleanSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(cleanSchema);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key === "propertyNames") continue;
    if ((key === "maximum" && value === SAFE) || (key === "minimum" && value === -SAFE)) continue;
    out[key === "oneOf" ? "anyOf" : key] = key === "$ref" ? String(value).replace("__schema", "s") : cleanSchema(value);
  }
  if (out.$defs && typeof out.$defs === "object") {
    out.$defs = Object.fromEntries(Object.entries(out.$defs).map(([k, v]) => [k.replace("__schema", "s"), v]));
  }
  return out;
}

/**
 * A `$ref` with keywords beside it (zod writes a refined reuse that way: `{$ref, minimum: 1}`) is
 * inlined — the referenced schema with those keywords over it — since not every provider reads
 * keywords next to a `$ref`. A `$ref` with only a description stays a reference.
 */
function inlineRefinedRefs(node: unknown, defs: Record<string, JsonSchema>): unknown {
  if (Array.isArray(node)) return node.map((x) => inlineRefinedRefs(x, defs));
  if (!node || typeof node !== "object") return node;
  const o = node as JsonSchema;
  const siblings = Object.keys(o).filter((k) => k !== "$ref" && k !== "description");
  if (typeof o.$ref === "string" && siblings.length > 0) {
    const { $ref, ...rest } = o;
    const target = defs[$ref.replace("#/$defs/", "")] ?? {};
    return inlineRefinedRefs({ ...target, ...rest }, defs);
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, inlineRefinedRefs(v, defs)]));
}

/** JSON schema of a zod wire schema (input side: fields with lib/workflow defaults may be left out). */
export function jsonSchemaOfWire(schema: z.ZodType): JsonSchema {
  const clean = cleanSchema(
    z.toJSONSchema(schema, { io: "input", reused: "ref", unrepresentable: "any" }),
  ) as JsonSchema;
  return inlineRefinedRefs(clean, (clean.$defs ?? {}) as Record<string, JsonSchema>) as JsonSchema;
}

const schemasOf = (name: string, schema: z.ZodType): WireSchemas => {
  const loose = jsonSchemaOfWire(schema);
  return { name, loose, strict: toStrictSchema(loose) };
};

/** Both schemas of a new-workflow answer in this context. */
export const designSchemas = (ctx: WireContext = {}): WireSchemas =>
  schemasOf(SCHEMA_NAMES.design, designWireSchema(ctx));

/** Both schemas of an edit answer on `base` in this context. */
export const editSchemas = (ctx: WireContext = {}, base?: EditBase): WireSchemas =>
  schemasOf(SCHEMA_NAMES.edit, editWireSchema(ctx, base));
