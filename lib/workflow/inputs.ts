import * as z from "zod";
import type { Field } from "@/lib/workflow/schema";

const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, "must be a number")
    .transform(Number),
]);
const bool = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

function fieldSchema(field: Field): z.ZodType {
  switch (field.type) {
    case "string":
    case "text":
      return field.required ? z.string().min(1, "is required") : z.string();
    case "number":
      return numeric.pipe(z.number().finite());
    case "boolean":
      return bool;
    case "json":
      return z.unknown().refine((v) => v !== undefined, "is required");
  }
}

/** Schemas already built, by fields array: a saved version's document is checked once and shared (lib/workflow checkVersion), so its fields array is too. */
const built = new WeakMap<readonly Field[], z.ZodType<Record<string, unknown>>>();

/**
 * A zod schema for a run's inputs built from the workflow's input fields: each declared key with
 * its type (numbers and booleans also accepted as strings, from forms), required unless the field
 * says otherwise, and no undeclared keys. Kept per fields array: building a zod object schema costs
 * far more than parsing with a built one, on every run start.
 */
export function inputsSchema(fields: readonly Field[]): z.ZodType<Record<string, unknown>> {
  let schema = built.get(fields);
  if (!schema) built.set(fields, (schema = buildInputsSchema(fields)));
  return schema;
}

function buildInputsSchema(fields: readonly Field[]): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) shape[f.key] = f.required ? fieldSchema(f) : fieldSchema(f).optional();
  return z.strictObject(shape) as unknown as z.ZodType<Record<string, unknown>>;
}
