import { describe, expect, it } from "vitest";
import { summarySoFar } from "./draft-summary";

/** Every prefix of `json` (as deltas would build it): the summary read from it never goes backwards and ends as JSON.parse reads it. */
function prefixes(json: string): (string | null)[] {
  return Array.from({ length: json.length + 1 }, (_, n) => summarySoFar(json.slice(0, n)));
}

describe("summarySoFar", () => {
  it("reads a new design's and an edit's summary as it grows, up to the whole string", () => {
    const design = JSON.stringify({
      profile: { summary: "Drafts an article, then reviews it.", agents: [] },
      design: { nodes: [] },
    });
    const seen = prefixes(design).filter((s): s is string => s !== null);
    expect(seen.at(-1)).toBe("Drafts an article, then reviews it.");
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.startsWith(seen[i - 1]!)).toBe(true);
    expect(summarySoFar(JSON.stringify({ summary: "Adds a reviewer.", operations: [{ op: "add_node" }] }))).toBe(
      "Adds a reviewer.",
    );
  });

  it("decodes escapes, including ones cut between deltas, and never shows half an escape", () => {
    const summary = 'Quotes "a", a back\\slash, tab\there, line\nbreak, é and \u2713 and an emoji 🙂.';
    const json = JSON.stringify({ summary }).replace("é", "\\u00e9");
    const seen = prefixes(json);
    expect(seen.at(-1)).toBe(summary);
    for (const s of seen) if (s !== null) expect(summary.startsWith(s)).toBe(true);
  });

  it("is null before the key and for answers without one; stops at what is not JSON", () => {
    expect(summarySoFar("")).toBeNull();
    expect(summarySoFar('{"profile": {"summ')).toBeNull();
    expect(summarySoFar('{"profile": {"summary": ')).toBeNull();
    expect(summarySoFar('{"profile": {"summary": "')).toBe("");
    expect(summarySoFar("Sorry, I cannot help with that.")).toBeNull();
    expect(summarySoFar('{"summary": "bad \\x escape"}')).toBe("bad ");
    expect(summarySoFar('{"summary": "bad \\u12zz unicode"}')).toBe("bad ");
    expect(summarySoFar('{"summary": 42}')).toBeNull();
  });

  it("takes the first summary when a later one appears (an agent's own field of that name)", () => {
    expect(summarySoFar('{"profile": {"summary": "First.", "agents": [{"summary": "Second."}]}}')).toBe("First.");
  });
});
