import type { ReactFlowState } from "@xyflow/react";
import { describe, expect, it } from "vitest";
import { COMPACT_MIN_NODES, DETAIL_ZOOM, isZoomedOut } from "./detail-level";

const state = (zoom: number, nodes: number) =>
  ({
    transform: [0, 0, zoom],
    nodeLookup: new Map(Array.from({ length: nodes }, (_, i) => [`n${i}`, {}])),
  }) as unknown as ReactFlowState;

describe("isZoomedOut (compact nodes)", () => {
  it("is true only for a large graph below the detail zoom", () => {
    expect(isZoomedOut(state(DETAIL_ZOOM / 2, COMPACT_MIN_NODES))).toBe(true);
    expect(isZoomedOut(state(DETAIL_ZOOM, COMPACT_MIN_NODES * 10))).toBe(false);
    // a typical workflow that fits a narrow canvas just below the threshold keeps its detail
    expect(isZoomedOut(state(DETAIL_ZOOM * 0.8, 6))).toBe(false);
    expect(isZoomedOut(state(0.05, COMPACT_MIN_NODES - 1))).toBe(false);
  });
});
