/**
 * Safe property access shared by templates and expressions: own properties only, never the
 * prototype chain, so `{{inputs.__proto__}}` or `nodes.x.constructor` can never reach functions.
 */

/** Segment names refused everywhere: they lead to prototypes even where own-property checks pass. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Whether `segment` may be used as a path step (not a prototype-reaching name). */
export function isSafeSegment(segment: string): boolean {
  return !FORBIDDEN_SEGMENTS.has(segment);
}

/** One step: an own property of a plain object, or an index/own key of an array; otherwise undefined. */
export function getOwn(value: unknown, segment: string | number): unknown {
  if (value === null || typeof value !== "object") return undefined;
  const key = String(segment);
  if (!isSafeSegment(key)) return undefined;
  if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
  const found = (value as Record<string, unknown>)[key];
  return typeof found === "function" ? undefined : found;
}

/** Walks `path` from `root` with {@link getOwn}; any missing step yields undefined. */
export function getPath(root: unknown, path: readonly (string | number)[]): unknown {
  let current: unknown = root;
  for (const segment of path) {
    current = getOwn(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}
