import { jsonBoundsBreach, type JsonBounds } from "@/lib/workflow/json-bounds";

/** What a JSON text field holds: a value, or why it is not one (a parse error, or past the bounds). */
export type JsonDraft = { ok: true; value: unknown } | { ok: false; error: string };

/** Parses the text of a JSON field, checking it against `bounds` when given (the server checks again). */
export function parseJsonDraft(text: string, bounds?: JsonBounds): JsonDraft {
  if (text.trim() === "") return { ok: false, error: "Enter a JSON value (a quoted string, a number, an object, …)." };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const breach = bounds && jsonBoundsBreach(value, bounds);
  if (breach?.limit === "depth") return { ok: false, error: `Nested more than ${breach.max} levels deep.` };
  if (breach?.limit === "size") return { ok: false, error: `Longer than ${breach.max} characters as JSON.` };
  return { ok: true, value };
}

/** A value as the text of a JSON field (pretty-printed). */
export const jsonText = (value: unknown): string => (value === undefined ? "" : JSON.stringify(value, null, 2));
