import { describe, expect, it } from "vitest";
import { workflowTemplates } from "@/lib/workflow/templates";
import {
  boundsInView,
  documentBounds,
  fitZoom,
  LEGIBLE_ZOOM,
  MAX_OPEN_ZOOM,
  openingViewport,
  OVERVIEW_SHARE,
  VIEW_PADDING,
} from "./fit-view";
import { NODE_MIN_FONT_PX } from "./nodes/node-size";

/** The editor's canvas on a 1440×900 window (palette 176 px, side panel 320 px, header and toolbar 104 px). */
const CANVAS = { width: 944, height: 796 };

/** Where `bounds` lands on screen under `v`. */
const onScreen = (
  b: { x: number; y: number; width: number; height: number },
  v: { x: number; y: number; zoom: number },
) => ({
  left: b.x * v.zoom + v.x,
  top: b.y * v.zoom + v.y,
  right: (b.x + b.width) * v.zoom + v.x,
  bottom: (b.y + b.height) * v.zoom + v.y,
});

describe("opening view", () => {
  it("draws the smallest node text at 12 px or more whenever the graph is small enough to read", () => {
    expect(NODE_MIN_FONT_PX * LEGIBLE_ZOOM).toBeGreaterThanOrEqual(12);
  });

  it("opens every template legibly, across at least half the canvas, from its left edge when it is wider", () => {
    for (const t of workflowTemplates) {
      const b = documentBounds(t.workflow)!;
      const v = openingViewport(b, CANVAS);
      expect(v.zoom, t.id).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
      const s = onScreen(b, v);
      const covered = Math.min(s.right, CANVAS.width) - Math.max(s.left, 0);
      expect(covered / CANVAS.width, t.id).toBeGreaterThanOrEqual(0.5);
      if (b.width * v.zoom > CANVAS.width - 2 * VIEW_PADDING) expect(s.left, t.id).toBeCloseTo(VIEW_PADDING);
    }
  });

  it("fits and centres a graph that fits legibly, without blowing a tiny one up", () => {
    const small = { x: 100, y: 50, width: 500, height: 200 };
    const v = openingViewport(small, CANVAS);
    expect(v.zoom).toBeCloseTo(Math.min(fitZoom(small, CANVAS), MAX_OPEN_ZOOM));
    const s = onScreen(small, v);
    expect(s.left + s.right).toBeCloseTo(CANVAS.width);
    expect(s.top + s.bottom).toBeCloseTo(CANVAS.height);
    expect(boundsInView(small, [v.x, v.y, v.zoom], CANVAS.width, CANVAS.height)).toBe(true);
  });

  it("fits a large graph whole (an overview), however small its text", () => {
    const large = { x: 0, y: 0, width: 6000, height: 2400 };
    const v = openingViewport(large, CANVAS);
    expect(v.zoom).toBeLessThan(LEGIBLE_ZOOM * OVERVIEW_SHARE);
    expect(v.zoom).toBeCloseTo(fitZoom(large, CANVAS));
    expect(boundsInView(large, [v.x, v.y, v.zoom], CANVAS.width, CANVAS.height)).toBe(true);
  });

  it("draws a graph a little too large to fit legibly at the legible zoom, part of it out of view", () => {
    const wide = { x: 0, y: 0, width: 1624, height: 300 };
    const v = openingViewport(wide, CANVAS);
    expect(v.zoom).toBe(LEGIBLE_ZOOM);
    expect(boundsInView(wide, [v.x, v.y, v.zoom], CANVAS.width, CANVAS.height)).toBe(false);
    // vertically it fits: centred
    const s = onScreen(wide, v);
    expect(s.top + s.bottom).toBeCloseTo(CANVAS.height);
  });

  it("draws a graph that fits legibly only with a tighter margin whole, centred", () => {
    // the run dashboard's canvas and the majority vote: 1,064 px wide in a 1,104 px canvas
    const canvas = { width: 1104, height: 560 };
    const vote = { x: 0, y: 0, width: 1064, height: 450 };
    const v = openingViewport(vote, canvas);
    expect(v.zoom).toBe(LEGIBLE_ZOOM);
    expect(boundsInView(vote, [v.x, v.y, v.zoom], canvas.width, canvas.height)).toBe(true);
    const s = onScreen(vote, v);
    expect(s.left + s.right).toBeCloseTo(canvas.width);
  });

  it("opens an empty graph at the legible zoom", () => {
    expect(openingViewport(undefined, CANVAS).zoom).toBe(LEGIBLE_ZOOM);
  });
});
