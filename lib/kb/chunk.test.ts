import { describe, expect, it } from "vitest";
import { chunkText } from "./chunk";

const sentence = (i: number) => `Sentence ${i} says something specific about topic ${i}.`;

describe("chunkText", () => {
  it("every chunk is the exact slice of the source at its offsets", () => {
    const text = `# A\n\n${Array.from({ length: 80 }, (_, i) => sentence(i)).join(" ")}\n\n## B\n\nShort.\n\n${"word ".repeat(700)}`;
    const chunks = chunkText(text, { maxChars: 400, overlapChars: 80 });
    expect(chunks.length).toBeGreaterThan(5);
    chunks.forEach((c, i) => {
      expect(c.ordinal).toBe(i);
      expect(text.slice(c.start, c.end)).toBe(c.text);
      expect(c.text.length).toBeLessThanOrEqual(400);
      expect(c.text.trim()).toBe(c.text);
    });
  });

  it("a heading starts a new chunk and names it; headings nest", () => {
    const text =
      "# Guide\n\nIntro text.\n\n## Install\n\nRun the installer.\n\n### Linux\n\nUse the package.\n\n## Use\n\nOpen it.";
    const chunks = chunkText(text);
    expect(chunks.map((c) => c.heading)).toEqual([
      "Guide",
      "Guide › Install",
      "Guide › Install › Linux",
      "Guide › Use",
    ]);
    expect(chunks[1]!.text).toBe("## Install\n\nRun the installer.");
  });

  it("consecutive chunks of one section overlap; no overlap crosses a heading", () => {
    const body = Array.from({ length: 40 }, (_, i) => sentence(i)).join(" ");
    const text = `# One\n\n${body}\n\n# Two\n\n${body}`;
    const chunks = chunkText(text, { maxChars: 300, overlapChars: 100 });
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!;
      const cur = chunks[i]!;
      if (cur.heading === prev.heading) {
        expect(cur.start).toBeLessThan(prev.end);
        expect(prev.end - cur.start).toBeLessThanOrEqual(100);
      } else {
        expect(cur.start).toBeGreaterThanOrEqual(prev.end);
        expect(cur.text.startsWith("# Two")).toBe(true);
      }
      expect(cur.end).toBeGreaterThan(prev.end);
    }
  });

  it("PDF pages are hard boundaries and every chunk carries its page", () => {
    const p1 = "Page one text. ".repeat(5).trim();
    const p2 = "Second page text.";
    const text = `${p1}\n\n${p2}`;
    const chunks = chunkText(text, {
      pages: [
        { page: 1, start: 0, end: p1.length },
        { page: 3, start: p1.length + 2, end: text.length },
      ],
    });
    expect(chunks.map((c) => [c.page, c.text])).toEqual([
      [1, p1],
      [3, p2],
    ]);
  });

  it("CSV rows stay whole and are packed several to a chunk", () => {
    const rows = Array.from({ length: 50 }, (_, i) => `Row ${i + 1}: product: item ${i}; price: ${i * 3}`);
    const chunks = chunkText(rows.join("\n"), { lineUnits: true, maxChars: 300, overlapChars: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) for (const line of c.text.split("\n")) expect(rows).toContain(line);
    expect(chunks.map((c) => c.text).join("\n")).toBe(rows.join("\n"));
  });

  it("fenced code is not mistaken for headings; one huge word is hard-split", () => {
    const text = "# Real\n\n```\n# not a heading\n```\n\n" + "x".repeat(2500);
    const chunks = chunkText(text, { maxChars: 1000 });
    expect(chunks.every((c) => c.heading === "Real")).toBe(true);
    expect(Math.max(...chunks.map((c) => c.text.length))).toBeLessThanOrEqual(1000);
    expect(chunks.map((c) => c.text).join("")).toContain("x".repeat(900));
  });

  it("empty or whitespace text gives no chunks", () => {
    expect(chunkText("")).toEqual([]);
    expect(chunkText("\n\n  \n")).toEqual([]);
  });
});
