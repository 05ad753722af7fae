import { describe, expect, it } from "vitest";
import type { Field } from "@/lib/workflow/schema";
import { rowsToCsv, rowsToJsonl } from "./export";
import { IMPORT_ROWS_MAX, parseCsvRows, parseJsonlRows, type RowDraft } from "./import";

const fields: Field[] = [
  { key: "topic", type: "string", required: true },
  { key: "count", type: "number", required: false },
  { key: "strict", type: "boolean", required: false },
  { key: "extra", type: "json", required: false },
].map((f) => ({ description: "", ...f })) as Field[];

describe("CSV import", () => {
  it("reads inputs, a reference, per-output references and tags", () => {
    const parsed = parseCsvRows(
      "topic,count,expected.answer,expected.n,tags\nowls,3,Owls hoot,3,birds; night\n",
      fields,
    );
    expect(parsed).toEqual({
      ok: true,
      rows: [
        { inputs: { topic: "owls", count: 3 }, reference: { answer: "Owls hoot", n: "3" }, tags: ["birds", "night"] },
      ],
    });
  });

  it("reports every bad row with its line and stores none: a wrong type, a missing required input, a short row", () => {
    const text = "topic,count,expected\nowls,3,a\nbats,many,b\n,4,c\ncats,2,d\nshort\n";
    const parsed = parseCsvRows(text, fields);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual([
      { row: 2, line: 3, message: 'count: must be a number (got "many")' },
      { row: 3, line: 4, message: "topic: is required" },
      { row: 5, line: 6, message: "1 values, the header has 3 columns" },
    ]);
    expect(parsed.errorCount).toBe(3);
  });

  it("refuses a header naming a column that is no input field, a duplicate column, an empty file", () => {
    expect(parseCsvRows("topic,colour\nowls,red\n", fields)).toMatchObject({
      ok: false,
      errors: [{ line: 1, message: expect.stringContaining("colour") }],
    });
    expect(parseCsvRows("topic,topic\na,b\n", fields)).toMatchObject({
      ok: false,
      errors: [{ message: expect.stringContaining("twice") }],
    });
    expect(parseCsvRows("", fields)).toMatchObject({ ok: false });
    expect(parseCsvRows("topic\n", fields)).toMatchObject({
      ok: false,
      errors: [{ message: expect.stringContaining("no rows") }],
    });
  });

  it("hostile input: quotes, commas, newlines, a BOM, CRLF and a formula read as plain text", () => {
    const parsed = parseCsvRows('\uFEFFtopic,expected\r\n"a, ""quoted""\nline",=1+1\r\n', fields);
    expect(parsed).toEqual({
      ok: true,
      rows: [{ inputs: { topic: 'a, "quoted"\nline' }, reference: "=1+1", tags: [] }],
    });
  });

  it("an unterminated quote is reported, not swallowed silently", () => {
    const parsed = parseCsvRows('topic,expected\nowls,"open\n', fields);
    expect(parsed.ok).toBe(false);
  });

  it(`refuses more than ${IMPORT_ROWS_MAX} rows`, () => {
    const text = `topic\n${"x\n".repeat(IMPORT_ROWS_MAX + 1)}`;
    expect(parseCsvRows(text, fields)).toMatchObject({
      ok: false,
      errors: [{ message: expect.stringContaining(String(IMPORT_ROWS_MAX)) }],
    });
  });

  it("without fields any column is an input, kept as text", () => {
    expect(parseCsvRows("a,b\n1,true\n")).toEqual({ ok: true, rows: [{ inputs: { a: "1", b: "true" }, tags: [] }] });
  });
});

describe("JSONL import", () => {
  it("reads rows and reports every bad line", () => {
    const ok = parseJsonlRows(
      '{"inputs":{"topic":"owls"},"reference":"x","tags":["a"]}\n\n{"inputs":{"topic":"bats","count":"2"}}\n',
      fields,
    );
    expect(ok).toEqual({
      ok: true,
      rows: [
        { inputs: { topic: "owls" }, reference: "x", tags: ["a"] },
        { inputs: { topic: "bats", count: 2 }, tags: [] },
      ],
    });
    const bad = parseJsonlRows('{"inputs":{"topic":"owls"}}\nnot json\n{"inputs":{"count":1}}\n[1]\n', fields);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.map((e) => e.line)).toEqual([2, 3, 4]);
  });
});

/** Rows generated from the import's contract: random text (commas, quotes, newlines, unicode, spaces at the ends), numbers, tags. */
function randomRows(seed: number, n: number): RowDraft[] {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = ["a", "Z", " ", ",", '"', "\n", "é", "🙂", ";", "=", "1", "{", "}"];
  const text = (min: number) =>
    Array.from({ length: min + Math.floor(rnd() * 12) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
  return Array.from({ length: n }, () => {
    const topic = `t${text(1)}`.replace(/^\s+|\s+$/g, "") || "t";
    const ref = rnd() < 0.3 ? undefined : `r${text(0)}`;
    return {
      inputs: { topic, ...(rnd() < 0.5 ? { count: Math.round(rnd() * 1000) / 10 } : {}) },
      ...(ref !== undefined && !/^\s*[[{]/.test(ref) ? { reference: ref } : {}),
      tags: rnd() < 0.5 ? [] : ["x", "y z"],
    };
  });
}

describe("export and import again give the same rows", () => {
  it.each([1, 2, 3, 4, 5])("random rows, seed %i: CSV and JSONL", (seed) => {
    const rows = randomRows(seed, 40);
    const csv = parseCsvRows(rowsToCsv(rows), fields);
    const jsonl = parseJsonlRows(rowsToJsonl(rows), fields);
    const norm = (r: RowDraft[]) => r.map((x) => ({ ...x, reference: x.reference ?? undefined }));
    expect(csv.ok && norm(csv.rows)).toEqual(norm(rows));
    expect(jsonl.ok && norm(jsonl.rows)).toEqual(norm(rows));
  });
});

describe("formula injection", () => {
  it("a cell a spreadsheet would run as a formula is exported as text, and imports again as it was", () => {
    const topics = ['=HYPERLINK("http://x")', "+1", "-2", "@SUM(A1)", "\t=1", "'=quoted", "''+two", "plain", "'plain"];
    const rows = topics.map((topic) => ({ inputs: { topic }, tags: [] }));
    const csv = rowsToCsv(rows);
    for (const line of csv.split("\r\n").slice(1, -1)) expect(line.replace(/^"/, "")).not.toMatch(/^[=+\-@\t\r]/);
    const back = parseCsvRows(csv, fields);
    expect(back.ok && back.rows.map((r) => r.inputs.topic)).toEqual(topics);
  });
});
