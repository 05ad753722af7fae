/**
 * A dataset version as a file: CSV in the import's own columns (so an export imports again as the
 * same rows, its cells guarded against formula injection: formula-guard.ts) or JSONL. Pure.
 */
import { guardCell } from "./formula-guard";

interface ExportRow {
  inputs: Record<string, unknown>;
  reference?: unknown;
  tags: string[];
}

const cell = (v: unknown): string => {
  const s = guardCell(v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v));
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** CSV: one column per input key (first seen first), `expected` or `expected.<output>` columns, `tags`. */
export function rowsToCsv(rows: readonly ExportRow[]): string {
  const inputKeys = [...new Set(rows.flatMap((r) => Object.keys(r.inputs)))];
  const refKeys = [...new Set(rows.flatMap((r) => (isRecord(r.reference) ? Object.keys(r.reference) : [])))];
  const plainRef = rows.some((r) => r.reference !== null && r.reference !== undefined && !isRecord(r.reference));
  const header = [...inputKeys, ...(plainRef ? ["expected"] : []), ...refKeys.map((k) => `expected.${k}`), "tags"];
  const lines = rows.map((r) =>
    [
      ...inputKeys.map((k) => cell(r.inputs[k])),
      ...(plainRef ? [cell(isRecord(r.reference) ? "" : r.reference)] : []),
      ...refKeys.map((k) => cell(isRecord(r.reference) ? r.reference[k] : "")),
      cell(r.tags.join(";")),
    ].join(","),
  );
  return [header.map(cell).join(","), ...lines].join("\r\n") + "\r\n";
}

/** JSONL: `{inputs, reference?, tags}` per line. */
export function rowsToJsonl(rows: readonly ExportRow[]): string {
  return (
    rows
      .map((r) =>
        JSON.stringify({
          inputs: r.inputs,
          ...(r.reference !== null && r.reference !== undefined ? { reference: r.reference } : {}),
          tags: r.tags,
        }),
      )
      .join("\n") + "\n"
  );
}
