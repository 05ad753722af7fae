import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { readArchive, safeDocx, storedArchive } from "./archive";
import { convertToText } from "./convert";
import { buildDocx, deflatedZip } from "./testing/fixtures";

/** The parts of a minimal DOCX (from the stored fixture), as text. */
function docxParts(paragraphs: string[]): Record<string, string> {
  const entries = readArchive(
    buildDocx(paragraphs),
    "f.docx",
    { maxEntries: 10, maxEntryBytes: 1e6, maxTotalBytes: 1e6 },
    () => true,
  );
  return Object.fromEntries(entries.map((e) => [e.name, new TextDecoder().decode(e.data!)]));
}

/** A DOCX whose document.xml is `bodyXml` repeated to `bytes` bytes of markup (deflated: a few KB). */
function bomb(bytes: number, unit: string, claim?: number): Buffer {
  const parts = docxParts(["x"]);
  const doc = parts["word/document.xml"]!;
  const body = unit.repeat(Math.ceil(bytes / unit.length));
  parts["word/document.xml"] = doc.replace(/<w:body>.*<\/w:body>/, `<w:body>${body}</w:body>`);
  return deflatedZip(parts, claim === undefined ? {} : { "word/document.xml": claim });
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError))
    throw new Error(`expected a refusal, got ${err === null ? "a converted document" : String(err)}`);
  return err;
}

describe("zip-based uploads (finding 4)", () => {
  it("a deflated DOCX still converts, through the stored copy the guard hands on", async () => {
    const upload = deflatedZip(docxParts(["Héllo world", "Second paragraph"]));
    const out = await convertToText("docx", upload, "ok.docx");
    expect(out.text).toBe("Héllo world\n\nSecond paragraph");
    const safe = readArchive(
      safeDocx(upload, "ok.docx"),
      "copy",
      { maxEntries: 10, maxEntryBytes: 1e6, maxTotalBytes: 1e6 },
      () => true,
    );
    expect(safe.map((e) => e.name).sort()).toEqual(Object.keys(docxParts(["x"])).sort());
  });

  it("finding 4: a DOCX decompression bomb is refused from its sizes, before conversion (a small upload, 40 MB of markup)", async () => {
    const upload = bomb(40 * 1_048_576, "<w:p/>");
    expect(upload.byteLength).toBeLessThan(200_000);
    const t0 = Date.now();
    const err = await rejection(convertToText("docx", upload, "bomb.docx"));
    expect(err.details).toEqual({ reason: "too_large" });
    expect(err.message).toMatch(/bomb\.docx unpacks word\/document\.xml to 40(\.\d)? MB; the limit is 16 MB per part/);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it("finding 4: an entry that lies about its size is stopped at the size it declares, never expanded", async () => {
    const upload = bomb(20 * 1_048_576, "<w:p/>", 4096);
    const err = await rejection(convertToText("docx", upload, "liar.docx"));
    expect(err.details).toEqual({ reason: "corrupt" });
    expect(err.message).toMatch(/unpacks to more than it declares/);
  });

  it("finding 4: the total of all parts and the entry count are capped", () => {
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`word/p${i}.xml`, "x".repeat(1000)]));
    expect(() =>
      readArchive(
        deflatedZip(many),
        "many.docx",
        { maxEntries: 10, maxEntryBytes: 1e6, maxTotalBytes: 1e6 },
        () => true,
      ),
    ).toThrow(/holds 20 files; the limit is 10/);
    expect(() =>
      readArchive(
        deflatedZip(many),
        "big.docx",
        { maxEntries: 100, maxEntryBytes: 1e6, maxTotalBytes: 15_000 },
        () => true,
      ),
    ).toThrow(/unpacks to more than/);
  });

  it("refuses damaged, encrypted and truncated archives as corrupt or unsupported", async () => {
    const good = deflatedZip(docxParts(["x"]));
    const truncated = good.subarray(0, good.length - 30);
    expect((await rejection(convertToText("docx", truncated, "t.docx"))).details).toMatchObject({ reason: "corrupt" });
    const flipped = Buffer.from(good);
    const at = 30 + "[Content_Types].xml".length + 5; // inside the first entry's deflate stream
    flipped[at] = flipped[at]! ^ 0xff;
    expect((await rejection(convertToText("docx", flipped, "f.docx"))).details).toMatchObject({ reason: "corrupt" });
  });

  it("storedArchive round-trips through readArchive", () => {
    const zip = storedArchive([
      { name: "a.txt", data: new TextEncoder().encode("hello") },
      { name: "img.png", data: null },
    ]);
    const back = readArchive(zip, "r.zip", { maxEntries: 5, maxEntryBytes: 100, maxTotalBytes: 100 }, () => true);
    expect(back.map((e) => [e.name, e.data && new TextDecoder().decode(e.data)])).toEqual([
      ["a.txt", "hello"],
      ["img.png", ""],
    ]);
  });
});
