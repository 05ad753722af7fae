/**
 * JSON schemas for OpenAI-style strict structured output (`response_format: json_schema, strict:
 * true`): every object closed (`additionalProperties: false`) with every property required (optional
 * ones nullable), only the keywords such providers accept, no open maps. `toStrictSchema` turns an
 * ordinary schema into that subset (a map becomes a list of {key, value} pairs, an open value a
 * scalar); `strictSchemaProblems` says what keeps a schema out of it. Pure: no I/O, no server-only.
 */

/** A JSON schema object (draft 2020-12 shapes). */
export type JsonSchema = { [key: string]: unknown };

/** Keywords strict mode accepts (annotations and structure included). */
export const STRICT_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "anyOf",
  "description",
  "title",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "$defs",
  "$ref",
]);

/** Nesting strict mode allows (objects within objects). */
export const STRICT_MAX_DEPTH = 10;

const SCALAR: JsonSchema = { anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }, { type: "null" }] };

const isObj = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/** `schema` that also accepts null (a non-required property in strict mode). */
export function nullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) {
    return schema.anyOf.some((s) => isObj(s) && s.type === "null")
      ? schema
      : { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  }
  if (typeof schema.type === "string" && !schema.$ref) {
    const out: JsonSchema = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.type))
    return schema.type.includes("null") ? schema : { ...schema, type: [...schema.type, "null"] };
  const { description, ...rest } = schema;
  return { anyOf: [rest, { type: "null" }], ...(description ? { description } : {}) };
}

function strictObject(schema: JsonSchema): JsonSchema {
  const props = isObj(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const properties = Object.fromEntries(
    Object.entries(props).map(([k, v]) => [
      k,
      required.has(k) ? toStrictSchema(v as JsonSchema) : nullable(toStrictSchema(v as JsonSchema)),
    ]),
  );
  const out: JsonSchema = {
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
  if (typeof schema.description === "string") out.description = schema.description;
  return out;
}

/** An open map {key: value} as the list of pairs strict mode can state. */
function strictMap(schema: JsonSchema): JsonSchema {
  const value = isObj(schema.additionalProperties) ? toStrictSchema(schema.additionalProperties) : SCALAR;
  const note = "An object written as a list of {key, value} pairs.";
  return {
    type: "array",
    description: typeof schema.description === "string" ? `${schema.description} ${note}` : note,
    items: {
      type: "object",
      properties: { key: { type: "string" }, value },
      required: ["key", "value"],
      additionalProperties: false,
    },
  };
}

const isMap = (s: JsonSchema) => s.type === "object" && !isObj(s.properties) && s.additionalProperties !== false;

/** The strict-mode form of `schema` (see the module comment); `$defs` are converted alike. */
export function toStrictSchema(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).every((k) => k === "description")) return { ...SCALAR, ...schema };
  if (isMap(schema)) return strictMap(schema);
  if (schema.type === "object") return keepDefs(schema, strictObject(schema));
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "oneOf" || key === "anyOf") out.anyOf = (value as JsonSchema[]).map(toStrictSchema);
    else if (key === "const") out.enum = [value];
    else if (key === "items" && isObj(value)) out.items = toStrictSchema(value);
    else if (key === "$defs" && isObj(value)) out.$defs = mapValues(value, toStrictSchema);
    else if (STRICT_KEYWORDS.has(key)) out[key] = value;
  }
  return out;
}

function keepDefs(source: JsonSchema, converted: JsonSchema): JsonSchema {
  return isObj(source.$defs) ? { ...converted, $defs: mapValues(source.$defs, toStrictSchema) } : converted;
}

const mapValues = (o: JsonSchema, f: (s: JsonSchema) => JsonSchema) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v as JsonSchema)]));

/** What keeps `schema` out of strict mode, one line per problem with its path; [] when it is strict. */
export function strictSchemaProblems(schema: JsonSchema): string[] {
  const problems: string[] = [];
  if (schema.type !== "object") problems.push("(root): must be an object schema, not a union");
  walk(schema, "(root)", 0, problems);
  return problems;
}

function walk(s: JsonSchema, path: string, depth: number, out: string[]): void {
  for (const key of Object.keys(s))
    if (!STRICT_KEYWORDS.has(key)) out.push(`${path}: keyword "${key}" is not supported`);
  if (!s.type && !s.anyOf && !s.$ref && !s.enum) out.push(`${path}: has no type`);
  if (Array.isArray(s.enum) && s.enum.length === 0) out.push(`${path}: empty enum`);
  const isObject = s.type === "object" || (Array.isArray(s.type) && s.type.includes("object"));
  if (isObject) {
    if (depth >= STRICT_MAX_DEPTH) out.push(`${path}: nested deeper than ${STRICT_MAX_DEPTH} objects`);
    if (s.additionalProperties !== false) out.push(`${path}: additionalProperties must be false`);
    const keys = Object.keys(isObj(s.properties) ? s.properties : {});
    const required = Array.isArray(s.required) ? s.required : [];
    for (const k of keys) if (!required.includes(k)) out.push(`${path}.${k}: every property must be required`);
  }
  const next = isObject ? depth + 1 : depth;
  if (isObj(s.properties))
    for (const [k, v] of Object.entries(s.properties)) walk(v as JsonSchema, `${path}.${k}`, next, out);
  if (isObj(s.items)) walk(s.items, `${path}[]`, next, out);
  if (Array.isArray(s.anyOf)) s.anyOf.forEach((v, i) => walk(v as JsonSchema, `${path}|${i}`, depth, out));
  if (isObj(s.$defs)) for (const [k, v] of Object.entries(s.$defs)) walk(v as JsonSchema, `$defs.${k}`, depth, out);
}
