import { AppError } from "@/lib/errors";

/** File formats the knowledge base accepts. */
export const KB_FORMATS = ["text", "markdown", "pdf", "docx", "html", "csv"] as const;
export type KbFormat = (typeof KB_FORMATS)[number];

/** Extensions per format (lower case, with the dot). */
export const KB_EXTENSIONS: Record<KbFormat, string[]> = {
  text: [".txt", ".text", ".log"],
  markdown: [".md", ".markdown", ".mdown"],
  pdf: [".pdf"],
  docx: [".docx"],
  html: [".html", ".htm", ".xhtml"],
  csv: [".csv"],
};

/** MIME type stored for each format. */
export const KB_MIME: Record<KbFormat, string> = {
  text: "text/plain",
  markdown: "text/markdown",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  html: "text/html",
  csv: "text/csv",
};

/** The `accept` attribute of the upload input. */
export const KB_ACCEPT = Object.values(KB_EXTENSIONS).flat().join(",");

/** Why an upload was refused; shown to the user next to the file name. */
export type KbRejection = "unsupported" | "too_large" | "corrupt" | "empty";

/** A user-facing refusal of one file (HTTP 400 with `details.reason`). */
export const kbRejected = (reason: KbRejection, message: string) => new AppError("bad_request", message, { reason });

const MIME_FORMAT: Record<string, KbFormat> = Object.fromEntries(
  Object.entries(KB_MIME).map(([f, m]) => [m, f as KbFormat]),
);

/** The format of an upload, from its name's extension, else its MIME type; null when unsupported. */
export function formatOf(name: string, mimeType?: string): KbFormat | null {
  const lower = name.toLowerCase();
  for (const f of KB_FORMATS) if (KB_EXTENSIONS[f].some((e) => lower.endsWith(e))) return f;
  const mime = (mimeType ?? "").split(";")[0]!.trim().toLowerCase();
  return MIME_FORMAT[mime] ?? (mime === "text/x-markdown" ? "markdown" : null);
}

const startsWith = (bytes: Uint8Array, sig: number[]) => sig.every((b, i) => bytes[i] === b);

/**
 * Checks the bytes look like the format before parsing: PDF starts with `%PDF-`, DOCX is a ZIP, text
 * formats are valid UTF-8 without NUL bytes. Throws kbRejected("corrupt") with a message naming the file.
 */
export function checkSignature(format: KbFormat, bytes: Uint8Array, name: string): void {
  if (format === "pdf" && !startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d]))
    throw kbRejected("corrupt", `${name} is not a PDF (it does not start with %PDF-).`);
  if (format === "docx" && !startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]))
    throw kbRejected("corrupt", `${name} is not a DOCX file (not a ZIP archive).`);
  if (format !== "pdf" && format !== "docx" && bytes.includes(0))
    throw kbRejected("corrupt", `${name} contains binary data; expected UTF-8 text.`);
}

/** Decodes UTF-8 strictly (a BOM is dropped); invalid bytes are a corrupt-file refusal. */
export function decodeUtf8(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw kbRejected("corrupt", `${name} is not valid UTF-8 text.`);
  }
}
