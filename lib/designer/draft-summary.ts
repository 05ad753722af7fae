/**
 * The summary a designer answer holds so far, read from the answer's JSON text while the model is
 * still writing it (the designer's chat shows it growing: `drafting` events). The summary is the
 * first `"summary": "…"` string of the answer (a new design's `profile.summary`, an edit's
 * `summary`, both one sentence). Lenient on purpose: an unfinished string is read up to its last
 * complete character, and an escape cut in half is left for the next delta. Not a JSON parser: the
 * whole answer is read and validated by the pipeline as before.
 */
const KEY = /"summary"\s*:\s*"/;

export function summarySoFar(raw: string): string | null {
  const m = KEY.exec(raw);
  if (!m) return null;
  let out = "";
  for (let i = m.index + m[0].length; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"') return out;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = raw[i + 1];
    if (e === undefined) return out; // cut after the backslash
    if (e === "u") {
      const hex = raw.slice(i + 2, i + 6);
      if (hex.length < 4) return out; // cut inside \uXXXX
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return out; // not JSON: stop where it stops being readable
      out += String.fromCharCode(parseInt(hex, 16));
      i += 5;
      continue;
    }
    const simple: Record<string, string> = {
      '"': '"',
      "\\": "\\",
      "/": "/",
      b: "\b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
    };
    if (!(e in simple)) return out;
    out += simple[e];
    i += 1;
  }
  return out;
}
