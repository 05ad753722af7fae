/**
 * Lexical similarity (deterministic, no model call): cosine of stemmed term counts. Used for tool reuse
 * (lib/tools/create) and by the scripted model server to pick the nearest example and judge branches.
 */

const STOP = new Set(
  "a an the to from of for and or in on with that this is are be it i me my we need want tool please which can by as into".split(
    " ",
  ),
);

/** Lower-case word stems of a text (snake_case and camelCase split; trailing plural/verb "s" dropped). */
export function terms(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP.has(w))
    .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
}

/** Cosine similarity in [0, 1] of two texts' term counts. */
export function similarity(a: string, b: string): number {
  const count = (t: string[]) => t.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>());
  const ca = count(terms(a));
  const cb = count(terms(b));
  let dot = 0;
  for (const [w, n] of ca) dot += n * (cb.get(w) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, n) => s + n * n, 0));
  const d = norm(ca) * norm(cb);
  return d === 0 ? 0 : dot / d;
}
