import { describe, expect, it } from "vitest";
import { cloneJson, jsonBoundsBreach } from "./json-bounds";

/** An object nested `levels` deep: {a: {a: … {}}}. */
const nested = (levels: number): Record<string, unknown> => {
  const root: Record<string, unknown> = {};
  let at = root;
  for (let i = 1; i < levels; i++) {
    const next: Record<string, unknown> = {};
    at.a = next;
    at = next;
  }
  return root;
};

/** Random JSON values of bounded depth (a small generator, so the checks meet shapes nobody wrote by hand). */
function randomJson(seed: number, depth: number): unknown {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const gen = (d: number): unknown => {
    const pick = rnd();
    if (d >= depth || pick < 0.3)
      return [null, true, false, Math.round(rnd() * 1e6) / 100, `s${Math.round(rnd() * 1e4)}`, 'é"\\'][
        Math.floor(rnd() * 6)
      ];
    if (pick < 0.65) return Array.from({ length: Math.floor(rnd() * 4) }, () => gen(d + 1));
    return Object.fromEntries(
      Array.from({ length: Math.floor(rnd() * 4) }, (_, i) => [`k${i}${Math.floor(rnd() * 9)}`, gen(d + 1)]),
    );
  };
  return gen(1);
}

const depthOf = (v: unknown): number =>
  typeof v !== "object" || v === null ? 0 : 1 + Math.max(0, ...Object.values(v).map(depthOf));

describe("jsonBoundsBreach", () => {
  it("names the depth of a value nested past the limit, however deep (no stack overflow)", () => {
    expect(jsonBoundsBreach(nested(20_000), { maxDepth: 64, maxChars: 1e9 })).toEqual({
      limit: "depth",
      depth: 65,
      max: 64,
    });
    const deep = JSON.parse(`${"[".repeat(100_000)}1${"]".repeat(100_000)}`);
    expect(jsonBoundsBreach(deep, { maxDepth: 64, maxChars: 1e9 })).toMatchObject({ limit: "depth" });
  });

  it("names the size of a long value, and stops early", () => {
    expect(jsonBoundsBreach({ text: "x".repeat(2_000) }, { maxDepth: 8, maxChars: 1_000 })).toMatchObject({
      limit: "size",
      max: 1_000,
    });
    const wide = Array.from({ length: 1_000_000 }, (_, i) => i);
    expect(jsonBoundsBreach(wide, { maxDepth: 8, maxChars: 10_000 })).toMatchObject({ limit: "size" });
  });

  it("agrees with the real depth and (as a lower bound) JSON length of random values", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const v = randomJson(seed, 7);
      const depth = depthOf(v);
      const len = JSON.stringify(v).length;
      expect(jsonBoundsBreach(v, { maxDepth: depth, maxChars: len })).toBeNull();
      if (depth > 0)
        expect(jsonBoundsBreach(v, { maxDepth: depth - 1, maxChars: 1e9 })).toMatchObject({ limit: "depth" });
      const escapes = (JSON.stringify(v).match(/\\/g) ?? []).length;
      expect(jsonBoundsBreach(v, { maxDepth: 100, maxChars: len - escapes - 1 })).toMatchObject({ limit: "size" });
    }
  });
});

describe("cloneJson", () => {
  it("copies random values exactly, sharing no object", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const v = randomJson(seed, 6);
      const copy = cloneJson(v);
      expect(copy).toEqual(v);
      if (typeof v === "object" && v !== null) expect(copy).not.toBe(v);
    }
  });

  it("copies a value nested 20,000 levels deep (structuredClone overflows at about 2,000)", () => {
    const v = nested(20_000);
    expect(() => structuredClone(v)).toThrow(RangeError);
    const copy = cloneJson(v);
    expect(copy === v).toBe(false);
    expect(jsonBoundsBreach(copy, { maxDepth: 19_999, maxChars: 1e9 })).toMatchObject({
      limit: "depth",
      depth: 20_000,
    });
  });

  it("copies dates and leaves scalars as they are", () => {
    const at = new Date(0);
    const copy = cloneJson({ at, n: 1 });
    expect(copy.at).toEqual(at);
    expect(copy.at).not.toBe(at);
    expect(cloneJson("s")).toBe("s");
    expect(cloneJson(null)).toBeNull();
  });
});
