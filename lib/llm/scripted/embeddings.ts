import "server-only";

/** Default embedding dimension of the scripted server (OpenAI's `dimensions` request field overrides it). */
export const DEFAULT_EMBEDDING_DIM = 256;

/** 32-bit FNV-1a: a small deterministic string hash. */
function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Lower-case words of a text (letters and digits, any script). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Deterministic embedding: a bag-of-words hashing vector (each word adds ±1 at a hashed index),
 * plus a small component seeded by the whole text so different texts never collide exactly, then
 * L2-normalised. Identical text → identical vector; texts sharing words → cosine similarity > 0.
 */
export function embed(text: string, dim: number = DEFAULT_EMBEDDING_DIM): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const w of words(text)) {
    const h = fnv1a(w);
    v[h % dim]! += h >>> 31 === 1 ? 1 : -1;
  }
  let state = fnv1a(text, 0x9e3779b9) || 1;
  for (let i = 0; i < dim; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    v[i]! += ((state / 0xffffffff) * 2 - 1) * 0.05;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

/** Cosine similarity of two equal-length vectors. */
export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / (Math.sqrt(na * nb) || 1);
}

/** Encodes a vector as base64 little-endian float32 (what `encoding_format: "base64"` returns). */
export function toBase64(v: number[]): string {
  const buf = Buffer.alloc(v.length * 4);
  v.forEach((x, i) => buf.writeFloatLE(x, i * 4));
  return buf.toString("base64");
}
