import { describe, expect, it } from "vitest";
import { defaultNode, nodeKindRegistry } from "./registry";
import { isTerminal, nodeKinds, nodeSchema, outcomesOf } from "./schema";

describe("nodeKindRegistry", () => {
  it("has exactly one entry per node kind, keyed by its kind", () => {
    expect(Object.keys(nodeKindRegistry).sort()).toEqual([...nodeKinds].sort());
    for (const kind of nodeKinds) expect(nodeKindRegistry[kind].kind).toBe(kind);
  });

  it("builds default nodes that parse with both the kind's schema and the union", () => {
    for (const kind of nodeKinds) {
      const node = defaultNode(kind, `n_${kind}`);
      expect(node.type).toBe(kind);
      expect(node.id).toBe(`n_${kind}`);
      expect(nodeKindRegistry[kind].configSchema.parse(node)).toEqual(node);
      expect(nodeSchema.parse(node)).toEqual(node);
    }
  });

  it("agrees with the schema on outcomes and terminals", () => {
    for (const kind of nodeKinds) {
      const node = defaultNode(kind, "x");
      const spec = nodeKindRegistry[kind] as { outcomes: (n: typeof node) => string[]; terminal: boolean };
      expect(spec.outcomes(node)).toEqual(outcomesOf(node));
      expect(spec.terminal).toBe(isTerminal(node));
    }
    expect(outcomesOf(defaultNode("router", "r"))).toEqual(["yes", "no"]);
    expect(outcomesOf(defaultNode("tool", "t"))).toEqual(["done", "error"]);
  });

  it("gives every kind a label, description and canvas hints", () => {
    for (const spec of Object.values(nodeKindRegistry)) {
      expect(spec.label).not.toBe("");
      expect(spec.description.length).toBeGreaterThan(10);
      expect(spec.color).toMatch(/^[a-z]+$/);
      expect(spec.icon).toMatch(/^[a-z-]+$/);
    }
    expect(
      Object.values(nodeKindRegistry)
        .filter((s) => s.singleton)
        .map((s) => s.kind),
    ).toEqual(["start"]);
  });
});
