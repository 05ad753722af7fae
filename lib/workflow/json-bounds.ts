/**
 * Bounds and copies of JSON values that never recurse, so a value nested thousands of levels deep
 * (which JSON.parse accepts) is measured or copied instead of overflowing the call stack the way
 * JSON.stringify and structuredClone do past a few thousand levels. Isomorphic.
 */

/** How deep (an object or array at the top is depth 1) and how long (JSON characters) a value may be. */
export interface JsonBounds {
  maxDepth: number;
  maxChars: number;
}

/** Which bound a value broke: its depth (at least `depth` levels) or its JSON length (more than `chars` characters). */
export type JsonBoundsBreach =
  { limit: "depth"; depth: number; max: number } | { limit: "size"; chars: number; max: number };

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === "object" && v !== null;

/** The JSON length of a scalar (quotes counted, escapes not: a lower bound, which is enough for a limit). */
function scalarChars(v: unknown): number {
  if (typeof v === "string") return v.length + 2;
  if (typeof v === "number" || typeof v === "bigint") return String(v).length;
  if (typeof v === "boolean") return v ? 4 : 5;
  return 4;
}

/**
 * The first bound `value` breaks, or null. Walks the value with an explicit stack and stops at the
 * first breach, so its cost is bounded by the limits, not by the value.
 */
export function jsonBoundsBreach(value: unknown, bounds: JsonBounds): JsonBoundsBreach | null {
  let chars = 0;
  const stack: [unknown, number][] = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [v, depth] = item;
    if (!isContainer(v)) {
      chars += scalarChars(v);
    } else {
      if (depth > bounds.maxDepth) return { limit: "depth", depth, max: bounds.maxDepth };
      chars += 2;
      if (Array.isArray(v)) {
        for (const child of v) stack.push([child, depth + 1]);
        chars += Math.max(0, v.length - 1);
      } else {
        const keys = Object.keys(v);
        for (const k of keys) {
          chars += k.length + 3;
          stack.push([v[k], depth + 1]);
        }
        chars += Math.max(0, keys.length - 1);
      }
    }
    if (chars > bounds.maxChars) return { limit: "size", chars, max: bounds.maxChars };
  }
  return null;
}

/**
 * A deep copy of a JSON-like value (plain objects and arrays copied; strings, numbers and the like
 * are immutable already), at any depth. Other objects (a Date) are copied by structuredClone.
 */
export function cloneJson<T>(value: T): T {
  if (!isContainer(value)) return value;
  const copyOf = (v: Record<string, unknown> | unknown[]) => (Array.isArray(v) ? new Array<unknown>(v.length) : {});
  const plain = (v: object) =>
    Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null;
  if (!plain(value)) return structuredClone(value);
  const root = copyOf(value);
  const stack: [Record<string, unknown> | unknown[], Record<string, unknown> | unknown[]][] = [[value, root]];
  for (let pair = stack.pop(); pair !== undefined; pair = stack.pop()) {
    const [from, to] = pair as [Record<string, unknown>, Record<string, unknown>];
    for (const k of Object.keys(from)) {
      const v = from[k];
      if (!isContainer(v)) to[k] = v;
      else if (!plain(v)) to[k] = structuredClone(v);
      else {
        const copy = copyOf(v);
        to[k] = copy;
        stack.push([v, copy]);
      }
    }
  }
  return root as T;
}
