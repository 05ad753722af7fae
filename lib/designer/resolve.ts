import { IDENTIFIER_MAX_LENGTH, IDENTIFIER_PATTERN } from "@/lib/workflow/schema";

/**
 * Names and references the way the designer repairs them: identifiers made from any text (slug),
 * made unique, and a reference resolved to a candidate by exact, normalised, then closest match.
 */

/** Lower case letters and digits only: "Fact-checker" and "fact_checker" normalise alike. */
export const normalise = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** True when `s` is a valid lib/workflow identifier. */
export const isIdentifier = (s: string): boolean => IDENTIFIER_PATTERN.test(s);

/** A valid identifier for `raw` ("Fact checker" → "Fact_checker", "1st" → "n1st"); `fallback` when nothing is left. */
export function slug(raw: string, fallback = "n"): string {
  const ascii = raw.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  let s = ascii
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (s && !/^[A-Za-z]/.test(s)) s = `${fallback}${s}`;
  s = (s || fallback).slice(0, IDENTIFIER_MAX_LENGTH);
  return isIdentifier(s) ? s : fallback;
}

/** `base`, or `base_2`, `base_3`… — the first not in `taken` (which it is then added to). */
export function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let i = 2; taken.has(id); i++) {
    const suffix = `_${i}`;
    id = `${base.slice(0, IDENTIFIER_MAX_LENGTH - suffix.length)}${suffix}`;
  }
  taken.add(id);
  return id;
}

/** Levenshtein distance (iterative, two rows). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** How alike two names are, 0–1: edit similarity of the normalised forms, or containment of a 4+ letter name. */
export function nameSimilarity(a: string, b: string): number {
  const x = normalise(a);
  const y = normalise(b);
  if (!x || !y) return 0;
  if (x === y) return 1;
  const contained = (x.length >= 4 && y.includes(x)) || (y.length >= 4 && x.includes(y));
  const edit = 1 - editDistance(x, y) / Math.max(x.length, y.length);
  return Math.max(edit, contained ? 0.75 : 0);
}

/** Below this, a name is not "the closest match" of anything. */
export const CLOSEST_THRESHOLD = 0.6;

/** A candidate a reference may resolve to: its id plus other names it goes by (a node's name, an agent's role). */
export type Candidate = { id: string; aliases?: readonly string[] };

/** How a reference was resolved. */
export type Resolution = { id: string; how: "exact" | "normalised" | "closest" };

/**
 * Resolves `ref` among `candidates`: the exact id, else the one id (or alias) equal once normalised,
 * else the most similar id or alias at or above `threshold` (default CLOSEST_THRESHOLD; ties: the earlier candidate).
 * Undefined when none qualifies or two candidates normalise alike.
 */
export function resolveRef(
  ref: string,
  candidates: readonly Candidate[],
  threshold = CLOSEST_THRESHOLD,
): Resolution | undefined {
  if (candidates.some((c) => c.id === ref)) return { id: ref, how: "exact" };
  const n = normalise(ref);
  if (!n) return undefined;
  const names = (c: Candidate) => [c.id, ...(c.aliases ?? [])];
  const same = candidates.filter((c) => names(c).some((x) => normalise(x) === n));
  if (same.length === 1) return { id: same[0]!.id, how: "normalised" };
  if (same.length > 1) return undefined;
  let best: { id: string; score: number } | undefined;
  for (const c of candidates) {
    const score = Math.max(...names(c).map((x) => nameSimilarity(ref, x)));
    if (score >= threshold && (!best || score > best.score)) best = { id: c.id, score };
  }
  return best ? { id: best.id, how: "closest" } : undefined;
}
