import type { ReactFlowState } from "@xyflow/react";
import { describe, expect, it } from "vitest";
import { COMPACT_MIN_NODES, compactNodes, DETAIL_ZOOM, isZoomedOut } from "./detail-level";

const state = (zoom: number, nodes: number) =>
  ({ transform: [0, 0, zoom], nodeLookup: new Map(Array.from({ length: nodes }, (_, i) => [`n${i}`, {}])) }) as unknown as ReactFlowState;

describe("isZoomedOut (compact nodes)", () => {
  it("is true only for a large graph below the detail zoom", () => {
    expect(isZoomedOut(state(DETAIL_ZOOM / 2, COMPACT_MIN_NODES))).toBe(true);
    expect(isZoomedOut(state(DETAIL_ZOOM, COMPACT_MIN_NODES * 10))).toBe(false);
    // a typical workflow that fits a narrow canvas just below the threshold keeps its detail
    expect(isZoomedOut(state(DETAIL_ZOOM * 0.8, 6))).toBe(false);
    expect(isZoomedOut(state(0.05, COMPACT_MIN_NODES - 1))).toBe(false);
  });
});

describe("compactNodes", () => {
  it("draws a large graph compact before its first fit, whatever the zoom; afterwards by zoom alone", () => {
    expect(compactNodes(state(1, COMPACT_MIN_NODES), false)).toBe(true);
    expect(compactNodes(state(1, COMPACT_MIN_NODES), true)).toBe(false);
    expect(compactNodes(state(DETAIL_ZOOM / 2, COMPACT_MIN_NODES), true)).toBe(true);
    // small graphs keep full detail before and after the fit
    expect(compactNodes(state(1, COMPACT_MIN_NODES - 1), false)).toBe(false);
    expect(compactNodes(state(0.05, 6), false)).toBe(false);
  });
});
