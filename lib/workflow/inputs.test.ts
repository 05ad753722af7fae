import { describe, expect, it } from "vitest";
import { fieldSchema } from "@/lib/workflow/schema";
import { inputsSchema } from "./inputs";

const fields = [
  fieldSchema.parse({ key: "topic", type: "string" }),
  fieldSchema.parse({ key: "words", type: "number" }),
  fieldSchema.parse({ key: "draft", type: "boolean", required: false }),
  fieldSchema.parse({ key: "meta", type: "json", required: false }),
];

describe("inputsSchema", () => {
  it("accepts declared inputs, coercing form strings for numbers and booleans", () => {
    expect(inputsSchema(fields).parse({ topic: "owls", words: "300", draft: "true" })).toEqual({
      topic: "owls",
      words: 300,
      draft: true,
    });
    expect(inputsSchema(fields).parse({ topic: "owls", words: 2, meta: { a: [1] } })).toEqual({
      topic: "owls",
      words: 2,
      meta: { a: [1] },
    });
  });

  it("refuses missing required, mistyped and undeclared inputs with their paths", () => {
    const r = inputsSchema(fields).safeParse({ words: "many", extra: 1 });
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path.join(".") || i.code) ?? [];
    expect(paths).toEqual(expect.arrayContaining(["topic", "words", "unrecognized_keys"]));
  });

  it("allows no inputs for a workflow without input fields", () => {
    expect(inputsSchema([]).parse({})).toEqual({});
  });

  it("builds a fields array's schema once and never answers another array's", () => {
    expect(inputsSchema(fields)).toBe(inputsSchema(fields));
    const other = [fieldSchema.parse({ key: "topic", type: "number" })];
    expect(inputsSchema(other)).not.toBe(inputsSchema(fields));
    expect(inputsSchema(other).safeParse({ topic: "owls" }).success).toBe(false);
    expect(inputsSchema(fields).safeParse({ topic: "owls", words: 1 }).success).toBe(true);
  });
});
