import { describe, expect, it } from "vitest";
import * as z from "zod";
import { describeRunRefusal } from "./input-errors";

describe("describeRunRefusal", () => {
  it("names each input at fault with its reason, from the API's zod tree", () => {
    const schema = z.object({ topic: z.string(), pages: z.number(), tags: z.array(z.string()) }).strict();
    const parsed = schema.safeParse({ pages: "two", tags: ["ok", 3] });
    const details = z.treeifyError(parsed.error!);
    const line = describeRunRefusal({ message: "The inputs do not match the workflow's input fields.", details }, 400);
    expect(line).toMatch(/^The inputs do not match the workflow's input fields\. /);
    expect(line).toContain("topic: Invalid input: expected string, received undefined");
    expect(line).toContain("pages: Invalid input: expected number, received string");
    expect(line).toContain("tags[1]: Invalid input: expected string, received number");
  });

  it("keeps the message alone without details, and says the status without a message", () => {
    expect(describeRunRefusal({ message: "Too many runs started; try again in 20 s." }, 429)).toBe(
      "Too many runs started; try again in 20 s.",
    );
    expect(describeRunRefusal(undefined, 502)).toBe("Could not start the run (502).");
  });

  it("caps the list", () => {
    const details = {
      properties: Object.fromEntries(["a", "b", "c", "d", "e", "f"].map((k) => [k, { errors: ["Required"] }])),
    };
    expect(describeRunRefusal({ message: "Bad.", details }, 400, 2)).toBe("Bad. a: Required; b: Required (and 4 more)");
  });
});
