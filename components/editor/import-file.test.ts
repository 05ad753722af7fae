import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportWorkflow } from "@/lib/workflow/io";
import { instantiateTemplate } from "@/lib/workflow/templates";
import { detectFormat, importWorkflowFile } from "./import-file";

const fixture = (name: string) =>
  fs.readFileSync(path.resolve(import.meta.dirname, "../../lib/workflow/importers/fixtures", name), "utf8");

describe("importWorkflowFile", () => {
  it("imports the editor's own export back to the same document", () => {
    const doc = instantiateTemplate("article-writer");
    if (!doc) throw new Error("template missing");
    const r = importWorkflowFile(exportWorkflow(doc));
    expect(r).toMatchObject({ ok: true, format: "weft" });
    expect(r.ok && r.doc).toEqual(doc);
  });

  it("recognises and imports both seed formats of the article writer, with its loop", () => {
    for (const [name, format] of [
      ["article-writer.autoagent.xml", "autoagent"],
      ["article-writer.metaagent.json", "metaagent"],
    ] as const) {
      const text = fixture(name);
      expect(detectFormat(text)).toBe(format);
      const r = importWorkflowFile(text);
      expect(r.ok, name).toBe(true);
      expect(r.ok && r.doc.edges.some((e) => e.kind === "loop")).toBe(true);
    }
  });

  it("names what is wrong in a broken file", () => {
    expect(importWorkflowFile("{not json")).toMatchObject({
      ok: false,
      error: expect.stringContaining("Not a Weft workflow"),
    });
    expect(importWorkflowFile('{"nodes": 3}')).toMatchObject({ ok: false, error: expect.stringContaining("nodes") });
  });
});
