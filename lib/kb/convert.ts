import "server-only";
import { parse as parseCsv } from "csv-parse/sync";
import mammoth from "mammoth";
import TurndownService from "turndown";
import { extractText, getDocumentProxy, getMeta } from "unpdf";
import { AppError } from "@/lib/errors";
import { htmlToMarkdown } from "./html-markdown";
import { safeDocx } from "./archive";
import { checkSignature, decodeUtf8, kbRejected, type KbFormat } from "./formats";

/** Where a page's text lies in the converted text (PDF only). */
export interface PageSpan {
  page: number;
  start: number;
  end: number;
}

/** A file turned into text. HTML and DOCX become Markdown (headings kept); CSV becomes one line per row. */
export interface Converted {
  text: string;
  title: string | null;
  pages: PageSpan[] | null;
  /** For CSV: the header row, repeated as context in every chunk's embedding input. */
  csvHeader: string[] | null;
}

/** Largest converted text kept per document (characters). */
export const MAX_TEXT_CHARS = 2_000_000;

const normalise = (s: string) => s.replace(/\r\n?/g, "\n").replace(/\u0000/g, "");

/** Converts one uploaded file to text. Throws kbRejected("corrupt" | "empty") with a message naming the file. */
export async function convertToText(format: KbFormat, bytes: Uint8Array, name: string): Promise<Converted> {
  checkSignature(format, bytes, name);
  const out = await convert(format, bytes, name);
  const text = normalise(out.text).trim();
  if (!text) {
    throw kbRejected(
      "empty",
      format === "pdf"
        ? `${name} has no extractable text (scanned PDFs need OCR, which is not supported).`
        : `${name} has no text.`,
    );
  }
  if (text.length > MAX_TEXT_CHARS)
    throw kbRejected(
      "too_large",
      `${name} converts to ${text.length.toLocaleString("en")} characters; the limit is ${MAX_TEXT_CHARS.toLocaleString("en")}.`,
    );
  return { ...out, text: out.pages ? out.text : text };
}

async function convert(format: KbFormat, bytes: Uint8Array, name: string): Promise<Converted> {
  switch (format) {
    case "text":
    case "markdown":
      return {
        text: decodeUtf8(bytes, name),
        title: markdownTitle(decodeUtf8(bytes, name)),
        pages: null,
        csvHeader: null,
      };
    case "html": {
      const { title, markdown } = htmlToMarkdown(decodeUtf8(bytes, name), name);
      return { text: markdown, title: title === name ? null : title, pages: null, csvHeader: null };
    }
    case "csv":
      return csvToText(decodeUtf8(bytes, name), name);
    case "pdf":
      return pdfToText(bytes, name);
    case "docx":
      return docxToText(bytes, name);
  }
}

function markdownTitle(text: string): string | null {
  const m = /^#\s+(.+)$/m.exec(text);
  return m ? m[1]!.trim() : null;
}

/** Each data row becomes `Row N: header: value; header: value` (empty cells left out) so a chunk of rows reads on its own. */
function csvToText(source: string, name: string): Converted {
  let rows: string[][];
  try {
    rows = parseCsv(source, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: false,
      trim: true,
    }) as string[][];
  } catch (err) {
    throw kbRejected("corrupt", `${name} is not valid CSV: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (rows.length === 0) return { text: "", title: null, pages: null, csvHeader: null };
  const header = rows[0]!.map((h, i) => h || `column ${i + 1}`);
  const lines = rows
    .slice(1)
    .map(
      (row, i) =>
        `Row ${i + 1}: ${row.flatMap((v, j) => (v ? [`${header[j] ?? `column ${j + 1}`}: ${v}`] : [])).join("; ")}`,
    );
  const text = rows.length === 1 ? `Columns: ${header.join("; ")}` : lines.join("\n");
  return { text, title: null, pages: null, csvHeader: header };
}

async function pdfToText(bytes: Uint8Array, name: string): Promise<Converted> {
  let pageTexts: string[];
  let title: string | null = null;
  try {
    // pdf.js transfers (detaches) the buffer it is given: hand it a copy.
    const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      pageTexts = (await extractText(doc, { mergePages: false })).text;
      const meta = await getMeta(doc).catch(() => null);
      const t = meta?.info?.Title;
      title = typeof t === "string" && t.trim() ? t.trim() : null;
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/password/i.test(msg))
      throw kbRejected("unsupported", `${name} is password-protected; upload an unprotected copy.`);
    throw kbRejected("corrupt", `${name} could not be read as a PDF (${msg}).`);
  }
  const pages: PageSpan[] = [];
  let text = "";
  pageTexts.forEach((raw, i) => {
    const body = normalise(raw).trim();
    if (!body) return;
    if (text) text += "\n\n";
    pages.push({ page: i + 1, start: text.length, end: text.length + body.length });
    text += body;
  });
  return { text, title, pages, csvHeader: null };
}

async function docxToText(bytes: Uint8Array, name: string): Promise<Converted> {
  let html: string;
  try {
    // sizes checked and parts inflated under caps first (lib/kb/archive.ts): mammoth only ever sees stored parts
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(safeDocx(bytes, name)) },
      { externalFileAccess: false, convertImage: mammoth.images.imgElement(async () => ({ src: "" })) },
    );
    html = result.value;
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw kbRejected(
      "corrupt",
      `${name} could not be read as a DOCX file (${err instanceof Error ? err.message : String(err)}).`,
    );
  }
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  turndown.remove(["img"]);
  const text = turndown.turndown(html).trim();
  return { text, title: markdownTitle(text), pages: null, csvHeader: null };
}
