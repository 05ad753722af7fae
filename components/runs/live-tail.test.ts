import { describe, expect, it } from "vitest";
import { LIVE_TAIL_CHARS, liveTail } from "./live-tail";

describe("liveTail", () => {
  it("draws a short text whole", () => {
    expect(liveTail("hello world")).toEqual({ text: "hello world", hidden: 0 });
    const exact = "x".repeat(LIVE_TAIL_CHARS);
    expect(liveTail(exact)).toEqual({ text: exact, hidden: 0 });
  });

  it("draws the last characters of a long text, starting at a whole word, and counts the rest", () => {
    const words = Array.from({ length: 2_000 }, (_, i) => `w${i}`).join(" ");
    const { text, hidden } = liveTail(words);
    expect(text.length).toBeLessThanOrEqual(LIVE_TAIL_CHARS);
    expect(text.length).toBeGreaterThan(LIVE_TAIL_CHARS - 80);
    expect(hidden + text.length).toBe(words.length);
    expect(words.slice(hidden)).toBe(text);
    expect(words[hidden - 1]).toBe(" ");
    expect(text.endsWith("w1999")).toBe(true);
  });

  it("cuts mid-text when no space is near the cut", () => {
    const blob = "a".repeat(10_000);
    expect(liveTail(blob)).toEqual({ text: "a".repeat(LIVE_TAIL_CHARS), hidden: 6_000 });
  });
});
