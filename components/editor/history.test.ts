import { describe, expect, it } from "vitest";
import { workflowSchema } from "@/lib/workflow/schema";
import { commit, createHistory, redo, undo } from "./history";

const doc = (name: string) => workflowSchema.parse({ name });

describe("history", () => {
  it("undo returns the previous document and redo the next; a new commit clears redo", () => {
    const a = doc("a"),
      b = doc("b"),
      c = doc("c");
    let h = commit(commit(createHistory(a), b), c);
    h = undo(h);
    expect(h.present).toBe(b);
    h = undo(h);
    expect(h.present).toBe(a);
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present).toBe(b);
    h = commit(h, doc("d"));
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
  });

  it("ignores a commit of the same document and drops the oldest past beyond the limit", () => {
    const a = doc("a");
    const h = createHistory(a);
    expect(commit(h, a)).toBe(h);
    let g = h;
    for (let i = 0; i < 5; i++) g = commit(g, doc(String(i)), 3);
    expect(g.past.map((d) => d.name)).toEqual(["1", "2", "3"]);
  });
});
