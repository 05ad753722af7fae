import { describe, expect, it } from "vitest";
import {
  checkDocument,
  checkedNodeCount,
  checkedVersionCount,
  checkVersion,
  MAX_CHECKED_NODES,
} from "./checked-versions";

const doc = (name: string) => ({
  name,
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end" },
  ],
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

  it("keeps at most MAX_CHECKED_NODES nodes in all: big versions push out the least recently used", () => {
    const big = (name: string, n: number) => ({
      name,
      nodes: [
        { id: "start", type: "start" },
        ...Array.from({ length: n }, (_, i) => ({ id: `x${i}`, type: "end" })),
        { id: "end", type: "end" },
      ],
      edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
    });
    const size = MAX_CHECKED_NODES / 4 - 2; // four of them fill the budget exactly
    const first = checkVersion("big-0", big("b0", size));
    for (let i = 1; i < 4; i++) checkVersion(`big-${i}`, big(`b${i}`, size));
    expect(checkedNodeCount()).toBeLessThanOrEqual(MAX_CHECKED_NODES);
    checkVersion("big-4", big("b4", size));
    expect(checkedNodeCount()).toBeLessThanOrEqual(MAX_CHECKED_NODES);
    const again = checkVersion("big-0", big("b0 again", size)); // it was pushed out: checked anew
    expect(again).not.toBe(first);
    expect(again.ok && again.workflow.name).toBe("b0 again");
    const kept = checkedVersionCount();
    const huge = checkVersion("huge", big("huge", MAX_CHECKED_NODES + 1)); // answered, not kept, pushes nothing out
    expect(huge.ok).toBe(true);
    expect(checkedVersionCount()).toBe(kept);
    expect(checkVersion("big-0", big("not read", 1))).toBe(again);
    expect(checkVersion("huge", big("huge 2", 1))).not.toBe(huge);
  });
});
