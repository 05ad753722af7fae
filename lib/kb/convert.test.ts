import { describe, expect, it } from "vitest";
import { chunkText } from "./chunk";
import { convertToText } from "./convert";
import { buildDocx, buildPdf, buildZip } from "./testing/fixtures";
import { checkSignature, formatOf } from "./formats";

describe("formatOf", () => {
  it("picks the format by extension, then MIME type", () => {
    expect(formatOf("Report.PDF")).toBe("pdf");
    expect(formatOf("notes.markdown")).toBe("markdown");
    expect(formatOf("page.htm")).toBe("html");
    expect(formatOf("data", "text/csv; charset=utf-8")).toBe("csv");
    expect(formatOf("blob", "application/octet-stream")).toBeNull();
    expect(formatOf("slides.pptx")).toBeNull();
  });

  it("refuses bytes that do not match the format", () => {
    expect(() => checkSignature("pdf", Buffer.from("hello"), "a.pdf")).toThrow(/not a PDF/);
    expect(() => checkSignature("docx", Buffer.from("hello"), "a.docx")).toThrow(/not a DOCX/);
    expect(() => checkSignature("text", Buffer.from([104, 0, 105]), "a.txt")).toThrow(/binary/);
  });
});

describe("convertToText", () => {
  it("PDF: text per page with page spans and the /Info title", async () => {
    const out = await convertToText("pdf", buildPdf([["First page (one)"], [], ["Third page"]], "My title"), "x.pdf");
    expect(out.title).toBe("My title");
    expect(out.pages).toEqual([
      { page: 1, start: 0, end: 16 },
      { page: 3, start: 18, end: 28 },
    ]);
    expect(out.pages!.map((p) => out.text.slice(p.start, p.end))).toEqual(["First page (one)", "Third page"]);
  });

  it("DOCX: headings become Markdown headings", async () => {
    const out = await convertToText(
      "docx",
      buildDocx([{ heading: 1, text: "Title" }, "Body & more", { heading: 2, text: "Part" }, "Text"]),
      "x.docx",
    );
    expect(out.text).toBe("# Title\n\nBody & more\n\n## Part\n\nText");
    expect(out.title).toBe("Title");
  });

  it("DOCX: a ZIP without a document part is corrupt", async () => {
    await expect(convertToText("docx", buildZip({ "hello.txt": "hi" }), "x.docx")).rejects.toMatchObject({
      details: { reason: "corrupt" },
    });
  });

  it("HTML: main content as Markdown, scripts dropped", async () => {
    const html =
      "<html><head><title>Doc</title><script>alert(1)</script></head><body><h2>Section</h2><p>A <a href='/x'>link</a> and <em>emphasis</em>.</p></body></html>";
    const out = await convertToText("html", Buffer.from(html), "x.html");
    expect(out.text).toContain("## Section");
    expect(out.text).toContain("[link](/x)");
    expect(out.text).not.toContain("alert");
    expect(out.title).toBe("Doc");
  });

  it("CSV: quoted fields and BOM parse; each row reads with its headers", async () => {
    const out = await convertToText("csv", Buffer.from('\uFEFFname,note\n"Smith, J","said ""hi"""\nLee,\n'), "x.csv");
    expect(out.text).toBe('Row 1: name: Smith, J; note: said "hi"\nRow 2: name: Lee');
    expect(out.csvHeader).toEqual(["name", "note"]);
  });

  it("text: CRLF normalised, BOM dropped; chunks index the normalised text", async () => {
    const out = await convertToText("text", Buffer.from("\uFEFFline one\r\n\r\nline two\r\n"), "x.txt");
    expect(out.text).toBe("line one\n\nline two");
    expect(chunkText(out.text).map((c) => c.text)).toEqual(["line one\n\nline two"]);
  });
});

describe("HTML without any tag", () => {
  it("finding 11: a tag-less .html upload converts as text, or is refused as empty (400), never a crash", async () => {
    const out = await convertToText(
      "html",
      new TextEncoder().encode("just some plain text, a < b > c, no tags at all"),
      "plain.html",
    );
    expect(out.text).toContain("just some plain text");
    for (const text of ["", "   ", "<!-- only a comment -->"]) {
      await expect(
        convertToText("html", new TextEncoder().encode(text), "e.html"),
        JSON.stringify(text),
      ).rejects.toMatchObject({ status: 400, details: { reason: "empty" } });
    }
  });
});
