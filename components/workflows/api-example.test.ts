import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fieldSchema } from "@/lib/workflow/schema";
import { exampleRunBody, shellQuote, startRunCurl } from "./api-example";

const fields = [
  fieldSchema.parse({ key: "topic", description: "What the article is about" }),
  fieldSchema.parse({ key: "notes", type: "text" }),
  fieldSchema.parse({ key: "pages", type: "number", required: false }),
  fieldSchema.parse({ key: "draft", type: "boolean" }),
  fieldSchema.parse({ key: "meta", type: "json" }),
];

describe("the workflow's API example", () => {
  it("gives every input field a value of its type", () => {
    expect(exampleRunBody(fields)).toEqual({
      inputs: { topic: "What the article is about", notes: "notes", pages: 1, draft: true, meta: {} },
    });
    expect(exampleRunBody([])).toEqual({ inputs: {} });
  });

  it("quotes for the shell so that the body arrives exactly as built, quotes inside included", () => {
    const tricky = [fieldSchema.parse({ key: "q", description: `it's "quoted" $HOME \`x\`` })];
    const word = shellQuote(JSON.stringify(exampleRunBody(tricky)));
    const echoed = execFileSync("sh", ["-c", `printf %s ${word}`], { encoding: "utf8" });
    expect(JSON.parse(echoed)).toEqual({ inputs: { q: `it's "quoted" $HOME \`x\`` } });
  });

  it("posts to the workflow's runs route with the token from the environment", () => {
    const curl = startRunCurl("http://localhost:3000", "wf_1", fields.slice(0, 1));
    expect(curl).toBe(
      [
        `curl -X POST 'http://localhost:3000/api/workflows/wf_1/runs' \\`,
        `  -H "Authorization: Bearer $WEFT_TOKEN" \\`,
        `  -H "content-type: application/json" \\`,
        `  -d '{"inputs":{"topic":"What the article is about"}}'`,
      ].join("\n"),
    );
  });
});
