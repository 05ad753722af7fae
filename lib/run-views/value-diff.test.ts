import { describe, expect, it } from "vitest";
import { diffText, diffValues } from "./value-diff";

const join = (parts: { op: string; text: string }[], keep: string[]) =>
  parts
    .filter((p) => keep.includes(p.op))
    .map((p) => p.text)
    .join("");

describe("output diffs", () => {
  it("text: word by word, and both sides rebuild from the parts", () => {
    const parts = diffText("The quick brown fox jumps", "The slow brown fox leaps high");
    expect(parts).toEqual([
      { op: "same", text: "The " },
      { op: "removed", text: "quick" },
      { op: "added", text: "slow" },
      { op: "same", text: " brown fox " },
      { op: "removed", text: "jumps" },
      { op: "added", text: "leaps high" },
    ]);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])("random texts rebuild exactly from their diff (seed %i)", (seed) => {
    let s = seed;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const vocab = ["a", "b", "c", "owl", "🙂", "é", "\n", "  "];
    const text = () =>
      Array.from({ length: Math.floor(rnd() * 40) }, () => vocab[Math.floor(rnd() * vocab.length)]).join(
        rnd() < 0.5 ? " " : "",
      );
    const [a, b] = [text(), text()];
    const parts = diffText(a, b);
    expect(join(parts, ["same", "removed"])).toBe(a);
    expect(join(parts, ["same", "added"])).toBe(b);
  });

  it("very long texts are one removal and one addition", () => {
    const a = "w ".repeat(2000);
    expect(diffText(a, "x")).toEqual([
      { op: "removed", text: a },
      { op: "added", text: "x" },
    ]);
  });

  it("JSON: the paths that differ, added and removed keys included", () => {
    expect(diffValues({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 3] }, d: true })).toEqual({
      kind: "json",
      more: 0,
      changes: [
        { path: ".b.c[1]", left: 2, right: 3 },
        { path: ".d", left: undefined, right: true },
      ],
    });
    expect(diffValues("x", 3)).toEqual({ kind: "json", more: 0, changes: [{ path: "(value)", left: "x", right: 3 }] });
    expect(diffValues({ a: [1] }, { a: [1] })).toEqual({ kind: "equal" });
  });
});
