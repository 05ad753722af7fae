/** Words that say nothing about what a text is for. */
const STOPWORDS = new Set("a an and are as at be by for from has have in into is it its of on or so that the their then them there these this to up was when where which while who will with each until".split(" "));

/** A text's distinct content words: lower case, letters and digits, three characters or more, no stop words. */
export function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOPWORDS.has(w)));
}

/** How alike two word sets are: shared words over the geometric mean of their sizes (0–1). */
export function likeness(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / Math.sqrt(a.size * b.size);
}
