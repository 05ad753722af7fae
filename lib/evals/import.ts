/**
 * Dataset rows from a CSV or JSONL file: every row checked against the workflow's input fields (when
 * the dataset names a workflow), every bad row reported with its line, and nothing returned unless
 * every row is good (the caller stores all or nothing). Pure: no database.
 *
 * CSV: a header row names the columns. `expected` (or `reference`) holds the reference answer,
 * `expected.<output>` one output's reference, `tags` tags separated by `;`; every other column is an
 * input field. JSONL: one object per line, `{"inputs": {...}, "reference": ..., "tags": [...]}`.
 */
import { parse, type CsvError } from "csv-parse/sync";
import * as z from "zod";
import { inputsSchema } from "@/lib/workflow/inputs";
import type { Field } from "@/lib/workflow/schema";
import { unguardCell } from "./formula-guard";

/** At most this many rows per import. */
export const IMPORT_ROWS_MAX = 5_000;
/** At most this many bytes per imported file. */
export const IMPORT_BYTES_MAX = 5 * 1024 * 1024;
/** At most this many errors are reported (the count says how many there were). */
const ERRORS_SHOWN = 100;

/** A row as imported, added or taken from a run. */
export const rowDraftSchema = z.object({
  inputs: z.record(z.string(), z.unknown()),
  reference: z.unknown().optional(),
  tags: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
});
export type RowDraft = z.output<typeof rowDraftSchema>;

/** One bad row: its number among the data rows (1 = the first after a CSV's header) and its line in the file. */
export interface RowError {
  row: number;
  line: number;
  message: string;
}

export type ParsedRows = { ok: true; rows: RowDraft[] } | { ok: false; errors: RowError[]; errorCount: number };

const fail = (errors: RowError[]): ParsedRows => ({
  ok: false,
  errors: errors.slice(0, ERRORS_SHOWN),
  errorCount: errors.length,
});

/** The inputs checked against the fields (numbers and booleans given as text are read as such); a message per problem. */
export function checkInputs(
  inputs: Record<string, unknown>,
  fields: readonly Field[] | undefined,
): { inputs: Record<string, unknown> } | { problems: string[] } {
  if (!fields) return { inputs };
  const parsed = inputsSchema(fields).safeParse(inputs);
  if (parsed.success) return { inputs: parsed.data };
  return { problems: parsed.error.issues.map((i) => problem(i, inputs, fields)) };
}

const MUST: Record<Field["type"], string> = {
  string: "is required",
  text: "is required",
  number: "must be a number",
  boolean: "must be true or false",
  json: "is required",
};

/** One input problem in the words of the field it is about. */
function problem(issue: z.core.$ZodIssue, inputs: Record<string, unknown>, fields: readonly Field[]): string {
  const key = String(issue.path[0] ?? "");
  const field = fields.find((f) => f.key === key);
  if (issue.code === "unrecognized_keys") return `not input fields of the workflow: ${issue.keys.join(", ")}`;
  if (!field) return issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
  const given = inputs[key];
  if (given === undefined) return `${key}: is required`;
  return `${key}: ${MUST[field.type]} (got ${JSON.stringify(given).slice(0, 40)})`;
}

const REF = /^(expected|reference)(\.(.+))?$/i;

/** What each CSV column holds. */
type Column = { kind: "input"; key: string } | { kind: "reference"; key?: string } | { kind: "tags" };

function columnsOf(header: string[], fields: readonly Field[] | undefined): Column[] | string {
  const names = header.map((h) => h.trim());
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) return `the column "${dup}" appears twice`;
  if (names.some((n) => !n)) return "a column has no name";
  const cols = names.map((n): Column => {
    const ref = REF.exec(n);
    if (ref) return { kind: "reference", ...(ref[3] ? { key: ref[3] } : {}) };
    if (n.toLowerCase() === "tags") return { kind: "tags" };
    return { kind: "input", key: n };
  });
  if (fields) {
    const known = new Set(fields.map((f) => f.key));
    const unknown = cols
      .filter((c): c is { kind: "input"; key: string } => c.kind === "input" && !known.has(c.key))
      .map((c) => c.key);
    if (unknown.length)
      return `not input fields of the workflow: ${unknown.join(", ")} (its fields: ${[...known].join(", ") || "none"})`;
  }
  return cols;
}

const jsonish = (v: string): unknown => {
  const t = v.trim();
  if (!/^[[{]/.test(t)) return v;
  try {
    return JSON.parse(t);
  } catch {
    return v;
  }
};

function rowFrom(cols: Column[], values: string[], fields: readonly Field[] | undefined): RowDraft | string[] {
  const inputs: Record<string, unknown> = {};
  let reference: unknown;
  const refs: Record<string, unknown> = {};
  let tags: string[] = [];
  cols.forEach((c, i) => {
    const v = values[i] ?? "";
    if (c.kind === "input") {
      if (v !== "") inputs[c.key] = fields?.find((f) => f.key === c.key)?.type === "json" ? jsonish(v) : v;
    } else if (c.kind === "tags") {
      tags = v
        .split(";")
        .map((t) => t.trim())
        .filter(Boolean);
    } else if (v !== "") {
      if (c.key) refs[c.key] = jsonish(v);
      else reference = jsonish(v);
    }
  });
  const checked = checkInputs(inputs, fields);
  if ("problems" in checked) return checked.problems;
  const ref = Object.keys(refs).length
    ? reference !== undefined
      ? { ...refs, expected: reference }
      : refs
    : reference;
  const draft = rowDraftSchema.safeParse({
    inputs: checked.inputs,
    ...(ref !== undefined ? { reference: ref } : {}),
    tags,
  });
  return draft.success ? draft.data : draft.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

/** Rows of a CSV file (see the module comment), or every bad row. */
export function parseCsvRows(text: string, fields?: readonly Field[]): ParsedRows {
  const errors: RowError[] = [];
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (err: CsvError | undefined) => {
        const line = Number(err?.lines ?? 0);
        if (!errors.some((e) => e.line === line))
          errors.push({ row: 0, line, message: err?.message ?? "unreadable row" });
        return undefined;
      },
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    return fail([{ row: 0, line: Number((err as CsvError).lines ?? 0), message: (err as Error).message }]);
  }
  const [head, ...body] = records;
  if (!head) return fail([{ row: 0, line: 1, message: "the file has no header row" }]);
  const cols = columnsOf(head.record, fields);
  if (typeof cols === "string") return fail([{ row: 0, line: head.info.lines, message: `header: ${cols}` }]);
  if (body.length + errors.length === 0)
    return fail([{ row: 0, line: head.info.lines, message: "the file has no rows under its header" }]);
  if (body.length > IMPORT_ROWS_MAX)
    return fail([{ row: 0, line: 0, message: `${body.length} rows: at most ${IMPORT_ROWS_MAX} per import` }]);
  const rows: RowDraft[] = [];
  body.forEach(({ record, info }, i) => {
    const at = { row: i + 1, line: info.lines };
    if (record.length !== cols.length) {
      errors.push({ ...at, message: `${record.length} values, the header has ${cols.length} columns` });
      return;
    }
    const row = rowFrom(cols, record.map(unguardCell), fields);
    if (Array.isArray(row)) errors.push({ ...at, message: row.join("; ") });
    else rows.push(row);
  });
  return errors.length ? fail(errors.sort((a, b) => a.line - b.line)) : { ok: true, rows };
}

/** Rows of a JSONL file (one `{inputs, reference?, tags?}` object per line), or every bad line. */
export function parseJsonlRows(text: string, fields?: readonly Field[]): ParsedRows {
  const errors: RowError[] = [];
  const rows: RowDraft[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let n = 0;
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const at = { row: ++n, line: i + 1 };
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      errors.push({ ...at, message: `not JSON: ${(err as Error).message}` });
      return;
    }
    const draft = rowDraftSchema.safeParse(value);
    if (!draft.success) {
      errors.push({
        ...at,
        message: draft.error.issues.map((x) => `${x.path.join(".") || "row"}: ${x.message}`).join("; "),
      });
      return;
    }
    const checked = checkInputs(draft.data.inputs, fields);
    if ("problems" in checked) errors.push({ ...at, message: checked.problems.join("; ") });
    else rows.push({ ...draft.data, inputs: checked.inputs });
  });
  if (!n) return fail([{ row: 0, line: 1, message: "the file has no rows" }]);
  if (n > IMPORT_ROWS_MAX)
    return fail([{ row: 0, line: 0, message: `${n} rows: at most ${IMPORT_ROWS_MAX} per import` }]);
  return errors.length ? fail(errors) : { ok: true, rows };
}
