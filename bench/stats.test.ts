import { describe, expect, it } from "vitest";
import { bootstrapRatioOfMedians, median } from "./stats";

describe("bootstrapRatioOfMedians", () => {
  it("brackets the ratio of the medians, and is reproducible", () => {
    const b = Array.from({ length: 15 }, (_, i) => 4 + (i % 5) * 0.3);
    const a = b.map((v, i) => v * 0.45 + ((i * 7) % 3) * 0.05);
    const [lo, hi] = bootstrapRatioOfMedians(a, b);
    const point = median(a) / median(b);
    expect(lo).toBeLessThanOrEqual(point);
    expect(hi).toBeGreaterThanOrEqual(point);
    expect(hi - lo).toBeGreaterThan(0);
    expect(bootstrapRatioOfMedians(a, b)).toEqual([lo, hi]);
  });

  it("narrows as the spread of the repetitions shrinks", () => {
    const b = Array.from({ length: 15 }, () => 4);
    const noisy = b.map((_, i) => 2 + (i % 2 ? 0.6 : -0.6));
    const quiet = b.map((_, i) => 2 + (i % 2 ? 0.05 : -0.05));
    const [nl, nh] = bootstrapRatioOfMedians(noisy, b);
    const [ql, qh] = bootstrapRatioOfMedians(quiet, b);
    expect(qh - ql).toBeLessThan(nh - nl);
    expect(ql).toBeGreaterThan(0.45);
    expect(qh).toBeLessThan(0.55);
  });

  it("needs pairs", () => {
    expect(() => bootstrapRatioOfMedians([1, 2], [1])).toThrow(/paired/);
    expect(() => bootstrapRatioOfMedians([], [])).toThrow(/paired/);
  });
});
