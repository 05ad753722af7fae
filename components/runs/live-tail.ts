/**
 * How much of a step's live text the inspector draws while the step runs: the last LIVE_TAIL_CHARS
 * characters. Drawing the whole text on every frame makes the browser lay out more and more text
 * as it grows (B2b, docs/benchmarks.md: paint p95 63 ms with whole texts against 36 ms with the tail,
 * 20 runs at 50 tokens/s); the whole text is the step's output once it ends.
 */
export const LIVE_TAIL_CHARS = 4_000;

/** The part of `text` to draw, and how many characters before it are not drawn. */
export function liveTail(text: string, max = LIVE_TAIL_CHARS): { text: string; hidden: number } {
  if (text.length <= max) return { text, hidden: 0 };
  // start after a line break or space near the cut when there is one, so the first word is whole
  let start = text.length - max;
  const near = text.slice(start, start + 80).search(/[\s]/);
  if (near >= 0) start += near + 1;
  return { text: text.slice(start), hidden: start };
}
