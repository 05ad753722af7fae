import { describe, expect, it } from "vitest";
import { jsonText, parseJsonDraft } from "./json-draft";

describe("parseJsonDraft", () => {
  it("parses JSON values of every kind", () => {
    for (const v of ["text", 42, true, null, [1, "a"], { a: { b: [] } }])
      expect(parseJsonDraft(jsonText(v))).toEqual({ ok: true, value: v });
  });

  it("explains empty text, bad JSON and values past the bounds", () => {
    expect(parseJsonDraft("  ")).toMatchObject({ ok: false, error: expect.stringContaining("Enter a JSON value") });
    expect(parseJsonDraft("{oops")).toMatchObject({ ok: false, error: expect.stringContaining("Not valid JSON") });
    expect(parseJsonDraft("hello")).toMatchObject({ ok: false });
    expect(parseJsonDraft(`${"[".repeat(10)}${"]".repeat(10)}`, { maxDepth: 5, maxChars: 100 })).toEqual({
      ok: false,
      error: "Nested more than 5 levels deep.",
    });
    expect(parseJsonDraft(JSON.stringify("x".repeat(200)), { maxDepth: 5, maxChars: 100 })).toEqual({
      ok: false,
      error: "Longer than 100 characters as JSON.",
    });
  });
});
