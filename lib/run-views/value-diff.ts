/**
 * What changed between two step outputs, for the run comparison: text compared word by word, JSON
 * values path by path. Client-safe and pure (the comparison view computes it in the browser).
 */
import { deepEqual } from "@/lib/workflow/equal";

/** A piece of a text diff: kept, only on the left (removed) or only on the right (added). */
export interface TextPart {
  op: "same" | "removed" | "added";
  text: string;
}

/** One JSON path whose value differs (absent on a side = undefined). */
export interface PathChange {
  path: string;
  left: unknown;
  right: unknown;
}

export type ValueDiff =
  { kind: "equal" } | { kind: "text"; parts: TextPart[] } | { kind: "json"; changes: PathChange[]; more: number };

/** Past this many words on a side the text diff is one removed and one added part (the LCS table is words²). */
const WORDS_MAX = 1500;
/** At most this many changed paths are listed. */
const PATHS_MAX = 50;

const words = (s: string) => s.split(/(\s+)/).filter((w) => w !== "");

function push(parts: TextPart[], op: TextPart["op"], text: string) {
  const last = parts.at(-1);
  if (last && last.op === op) last.text += text;
  else parts.push({ op, text });
}

/** A word-level diff of two texts (whitespace kept), by longest common subsequence. */
export function diffText(a: string, b: string): TextPart[] {
  const x = words(a);
  const y = words(b);
  if (x.length > WORDS_MAX || y.length > WORDS_MAX)
    return [...(a ? [{ op: "removed" as const, text: a }] : []), ...(b ? [{ op: "added" as const, text: b }] : [])];
  const n = x.length;
  const m = y.length;
  const table = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i]![j] = x[i] === y[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const parts: TextPart[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      push(parts, "same", x[i]!);
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) push(parts, "removed", x[i++]!);
    else push(parts, "added", y[j++]!);
  }
  while (i < n) push(parts, "removed", x[i++]!);
  while (j < m) push(parts, "added", y[j++]!);
  return parts;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function walk(a: unknown, b: unknown, path: string, out: PathChange[]): void {
  if (deepEqual(a, b)) return;
  if (isObject(a) && isObject(b) && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) walk(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`, out);
    return;
  }
  out.push({ path: path || "(value)", left: a, right: b });
}

/** How two outputs differ: equal, a word diff when both are text, else the JSON paths that differ. */
export function diffValues(a: unknown, b: unknown): ValueDiff {
  if (deepEqual(a, b)) return { kind: "equal" };
  if (typeof a === "string" && typeof b === "string") return { kind: "text", parts: diffText(a, b) };
  const changes: PathChange[] = [];
  walk(a, b, "", changes);
  return { kind: "json", changes: changes.slice(0, PATHS_MAX), more: Math.max(0, changes.length - PATHS_MAX) };
}
