import type { PageSpan } from "./convert";

/** One retrievable piece: `text === source.slice(start, end)`. */
export interface Chunk {
  ordinal: number;
  text: string;
  start: number;
  end: number;
  /** 1-based PDF page the chunk lies on (chunks never span pages). */
  page: number | null;
  /** Heading path of the section, e.g. "Annual report › Revenue" (Markdown, HTML, DOCX). */
  heading: string | null;
}

export interface ChunkOptions {
  /** Target maximum characters per chunk (default 1200 ≈ 300 tokens). */
  maxChars?: number;
  /** Characters repeated from the end of the previous chunk of the same section (default 200). */
  overlapChars?: number;
  /** PDF page spans: chunk boundaries at every page. */
  pages?: PageSpan[] | null;
  /** One unit per line (CSV rows): never split a row across chunks unless it is longer than maxChars. */
  lineUnits?: boolean;
}

interface Unit {
  start: number;
  end: number;
  /** A hard boundary before this unit: new page or new section; no chunk spans it, no overlap crosses it. */
  boundary: boolean;
  page: number | null;
  heading: string | null;
}

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;

/**
 * Structure-aware chunking with overlap. The text is cut into sections (a Markdown heading starts
 * one; each PDF page is one), sections into paragraphs (or lines), paragraphs longer than maxChars into
 * sentences, and sentences longer than that at whitespace. Units are packed greedily up to maxChars
 * without crossing a section; the next chunk of the same section starts with the last units of the
 * previous one that fit in overlapChars. Offsets index into `text`.
 */
export function chunkText(text: string, opts: ChunkOptions = {}): Chunk[] {
  const maxChars = Math.max(100, opts.maxChars ?? 1200);
  const overlap = Math.max(0, Math.min(opts.overlapChars ?? 200, Math.floor(maxChars / 2)));
  const units = toUnits(text, maxChars, opts);
  const chunks: Chunk[] = [];
  let i = 0;
  while (i < units.length) {
    let j = i;
    while (j + 1 < units.length && !units[j + 1]!.boundary && units[j + 1]!.end - units[i]!.start <= maxChars) j++;
    const start = units[i]!.start;
    const end = units[j]!.end;
    chunks.push({
      ordinal: chunks.length,
      text: text.slice(start, end),
      start,
      end,
      page: units[i]!.page,
      heading: units[i]!.heading,
    });
    if (j + 1 >= units.length) break;
    if (units[j + 1]!.boundary) {
      i = j + 1;
      continue;
    }
    let k = j + 1;
    for (let m = j; m > i && end - units[m]!.start <= overlap; m--) k = m;
    i = k;
  }
  return chunks;
}

function toUnits(text: string, maxChars: number, opts: ChunkOptions): Unit[] {
  const units: Unit[] = [];
  const pageAt = (offset: number) => opts.pages?.find((p) => offset >= p.start && offset < p.end)?.page ?? null;
  const headings: string[] = [];
  let boundary = true;
  let inFence = false;
  let paragraph: { start: number; end: number } | null = null;
  let currentPage: number | null = null;

  const flush = () => {
    if (!paragraph) return;
    const page = pageAt(paragraph.start);
    if (page !== currentPage) boundary = true;
    currentPage = page;
    const heading = headings.filter(Boolean).join(" › ") || null;
    for (const piece of splitLong(text, paragraph.start, paragraph.end, maxChars)) {
      units.push({ ...piece, boundary, page, heading });
      boundary = false;
    }
    paragraph = null;
  };

  const lineRe = /[^\n]*(\n|$)/g;
  for (let m = lineRe.exec(text); m && m.index < text.length; m = lineRe.exec(text)) {
    const lineStart = m.index;
    const line = m[0].replace(/\n$/, "");
    const lineEnd = lineStart + line.length;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const h = inFence ? null : HEADING.exec(line);
    const pageStart = opts.pages?.some((p) => p.start === lineStart) ?? false;
    if (h || pageStart || !line.trim() || opts.lineUnits) flush();
    if (h) {
      const level = h[1]!.length;
      headings.length = level;
      headings[level - 1] = h[2]!.replace(/[*_`]/g, "").trim();
      boundary = true;
    }
    if (line.trim()) {
      const s = lineStart + (line.length - line.trimStart().length);
      paragraph = paragraph ? { start: paragraph.start, end: lineEnd } : { start: s, end: lineEnd };
      if (opts.lineUnits) flush();
    }
    if (m[0].length === 0) break;
  }
  flush();
  return units;
}

/** Splits [start, end) into pieces ≤ maxChars: at sentence ends, else at whitespace, else hard. */
function splitLong(text: string, start: number, end: number, maxChars: number): { start: number; end: number }[] {
  if (end - start <= maxChars) return [{ start, end }];
  const pieces: { start: number; end: number }[] = [];
  const sentenceRe = /[^.!?。！？]+(?:[.!?。！？]+["')\]]*|$)\s*/g;
  sentenceRe.lastIndex = start;
  const body = text.slice(0, end);
  for (let m = sentenceRe.exec(body); m && m.index < end; m = sentenceRe.exec(body)) {
    if (m[0].length === 0) break;
    const s = m.index;
    const e = s + m[0].trimEnd().length;
    if (e > s) pieces.push(...hardSplit(text, s, e, maxChars));
  }
  return pieces;
}

function hardSplit(text: string, start: number, end: number, maxChars: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let s = start;
  while (end - s > maxChars) {
    const window = text.slice(s, s + maxChars);
    const cut = window.lastIndexOf(" ");
    const e = cut > maxChars / 2 ? s + cut : s + maxChars;
    out.push({ start: s, end: e });
    s = e;
    while (s < end && /\s/.test(text[s]!)) s++;
  }
  if (end > s) out.push({ start: s, end });
  return out;
}
