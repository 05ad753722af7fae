import { describe, expect, it } from "vitest";
import { nullable, strictSchemaProblems, toStrictSchema, type JsonSchema } from "./strict-schema";

describe("strict-mode JSON schemas", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^[a-z]+$", minLength: 1 },
      kind: { type: "string", const: "agent" },
      tags: { type: "array", items: { type: "string" }, minItems: 1 },
      outputs: { type: "object", additionalProperties: { type: "string" }, propertyNames: { type: "string" } },
      anything: {},
      choice: { oneOf: [{ type: "string" }, { type: "integer", default: 3 }] },
      mode: { type: "string", enum: ["a", "b"] },
    },
    required: ["id", "kind"],
  };

  it("closes every object, requires every property (optional ones nullable), lists maps as pairs, drops unsupported keywords", () => {
    const strict = toStrictSchema(schema);
    expect(strictSchemaProblems(strict)).toEqual([]);
    const props = strict.properties as Record<string, JsonSchema>;
    expect(strict.required).toEqual(Object.keys(schema.properties as object));
    expect(props.id).toEqual({ type: "string", pattern: "^[a-z]+$" });
    expect(props.kind).toEqual({ type: "string", enum: ["agent"] });
    expect(props.tags).toEqual({ type: ["array", "null"], items: { type: "string" }, minItems: 1 });
    expect(props.mode).toEqual({ type: ["string", "null"], enum: ["a", "b", null] });
    expect(props.outputs).toMatchObject({
      type: ["array", "null"],
      items: { required: ["key", "value"], additionalProperties: false },
    });
    expect((props.anything as JsonSchema).anyOf).toEqual([
      { type: "string" },
      { type: "number" },
      { type: "boolean" },
      { type: "null" },
    ]);
    expect(props.choice).toEqual({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] });
  });

  it("names what keeps a schema out of strict mode", () => {
    const problems = strictSchemaProblems(schema);
    expect(problems).toEqual(
      expect.arrayContaining([
        "(root): additionalProperties must be false",
        "(root).tags: every property must be required",
        '(root).id: keyword "minLength" is not supported',
        '(root).choice: keyword "oneOf" is not supported',
        "(root).anything: has no type",
      ]),
    );
    expect(
      strictSchemaProblems({ anyOf: [{ type: "object", properties: {}, required: [], additionalProperties: false }] }),
    ).toContain("(root): must be an object schema, not a union");
    expect(nullable({ $ref: "#/$defs/x", description: "d" })).toEqual({
      anyOf: [{ $ref: "#/$defs/x" }, { type: "null" }],
      description: "d",
    });
  });
});
