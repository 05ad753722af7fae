import { describe, expect, it } from "vitest";
import { checkDocument, checkedVersionCount, checkVersion } from "./checked-versions";

const doc = (name: string) => ({
  name,
  nodes: [{ id: "start", type: "start" }, { id: "end", type: "end" }],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
});

describe("checkDocument / checkVersion", () => {
  it("parses and validates; an unparseable document answers its zod error, an invalid one its issues", () => {
    const good = checkDocument(doc("ok"));
    expect(good).toMatchObject({ ok: true, workflow: { name: "ok" } });
    expect(good.ok && good.issues.filter((i) => i.severity === "error")).toEqual([]);
    const bad = checkDocument({ name: 3 });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error.issues.length).toBeGreaterThan(0);
    const broken = checkDocument({ ...doc("x"), edges: [] });
    expect(broken.ok && broken.issues.some((i) => i.severity === "error")).toBe(true);
  });

  it("checks a version once: later calls answer the first check, frozen, whatever they pass", () => {
    const first = checkVersion("ver-a", doc("first"));
    const again = checkVersion("ver-a", { name: 3 });
    expect(again).toBe(first);
    expect(first.ok && first.workflow.name).toBe("first");
    expect(Object.isFrozen(first)).toBe(true);
    expect(first.ok && Object.isFrozen(first.workflow.nodes[0])).toBe(true);
    expect(() => {
      if (first.ok) (first.workflow.nodes as unknown[]).push({});
    }).toThrow(TypeError);
    const failed = checkVersion("ver-bad", { name: 3 });
    expect(failed.ok).toBe(false);
    expect(checkVersion("ver-bad", doc("fixed?"))).toBe(failed);
  });

  it("keeps at most 256 versions, dropping the least recently used", () => {
    const kept = checkVersion("lru-0", doc("zero"));
    for (let i = 1; i < 256; i++) checkVersion(`lru-${i}`, doc(`n${i}`));
    checkVersion("lru-0", doc("zero")); // used again: now the most recent
    for (let i = 256; i < 300; i++) checkVersion(`lru-${i}`, doc(`n${i}`));
    expect(checkedVersionCount()).toBe(256);
    expect(checkVersion("lru-0", doc("other"))).toBe(kept);
    const evicted = checkVersion("lru-1", doc("re-checked"));
    expect(evicted.ok && evicted.workflow.name).toBe("re-checked");
  });
});
