import { describe, expect, it } from "vitest";
import { newField } from "./field-list";

const keyed = (key: string) => ({ ...newField([], "x"), key });

describe("newField", () => {
  it("keys a new required string field after the list's length, skipping keys in use", () => {
    expect(newField([], "field")).toEqual({ key: "field1", type: "string", description: "", required: true });
    expect(newField([keyed("notes")], "field").key).toBe("field2");
    expect(newField([keyed("field2")], "field").key).toBe("field3");
  });
});
