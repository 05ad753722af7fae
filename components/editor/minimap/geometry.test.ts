import { describe, expect, it } from "vitest";
import {
  clipRect,
  MINIMAP_MAX,
  MINIMAP_MIN,
  minimapBox,
  minimapFrame,
  nodesBounds,
  toMinimap,
  UNMEASURED_NODE,
  visibleFlowRect,
} from "./geometry";

describe("minimap geometry", () => {
  it("bounds cover every node, measured size first, the default size for unmeasured ones", () => {
    const bounds = nodesBounds([
      { position: { x: -100, y: 50 }, measured: { width: 200, height: 80 } },
      { position: { x: 400, y: -20 } },
    ]);
    expect(bounds).toEqual({ x: -100, y: -20, width: 500 + UNMEASURED_NODE.width, height: 150 });
    expect(nodesBounds([])).toBeUndefined();
  });

  it("fits the bounds into the box with a margin, centred along the slack axis", () => {
    const frame = minimapFrame({ x: 0, y: 0, width: 1000, height: 200 }, { width: 200, height: 150 }, 10);
    expect(frame.scale).toBeCloseTo(0.18);
    const all = toMinimap(frame, { x: 0, y: 0, width: 1000, height: 200 });
    expect(all.x).toBeCloseTo(10);
    expect(all.width).toBeCloseTo(180);
    expect(all.y + all.height / 2).toBeCloseTo(75);
  });

  it("the visible flow rectangle follows pan and zoom", () => {
    expect(visibleFlowRect([0, 0, 1], 800, 600)).toEqual({ x: 0, y: 0, width: 800, height: 600 });
    expect(visibleFlowRect([-200, 100, 0.5], 800, 600)).toEqual({ x: 400, y: -200, width: 1600, height: 1200 });
  });

  it("clips the visible area to the minimap box", () => {
    expect(clipRect({ x: -50, y: 20, width: 400, height: 50 }, { width: 200, height: 150 })).toEqual({
      x: 0,
      y: 20,
      width: 200,
      height: 50,
    });
    expect(clipRect({ x: 300, y: 20, width: 10, height: 10 }, { width: 200, height: 150 })).toEqual({
      x: 200,
      y: 20,
      width: 0,
      height: 10,
    });
  });

  it("sizes the minimap to the graph: its proportions, the long side full, the short side never below the minimum", () => {
    // six nodes in a row (1,624 × 130): a wide, flat map
    const flat = minimapBox({ x: 0, y: 0, width: 1624, height: 130 });
    expect(flat.width).toBe(MINIMAP_MAX);
    expect(flat.height).toBe(MINIMAP_MIN);
    // a 3:2 graph keeps 3:2 inside the margin
    const wide = minimapBox({ x: 0, y: 0, width: 1500, height: 1000 });
    expect(wide.width).toBe(MINIMAP_MAX);
    expect((wide.height - 16) / (wide.width - 16)).toBeCloseTo(2 / 3, 1);
    // a tall graph is a tall map
    const tall = minimapBox({ x: 0, y: 0, width: 400, height: 2000 });
    expect(tall).toEqual({ width: MINIMAP_MIN, height: MINIMAP_MAX });
    // and the frame fits it inside that box
    const frame = minimapFrame({ x: 0, y: 0, width: 1500, height: 1000 }, wide);
    const all = toMinimap(frame, { x: 0, y: 0, width: 1500, height: 1000 });
    expect(all.x).toBeGreaterThanOrEqual(0);
    expect(all.x + all.width).toBeLessThanOrEqual(wide.width + 0.01);
    expect(all.y + all.height).toBeLessThanOrEqual(wide.height + 0.01);
  });
});
