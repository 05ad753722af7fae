import type { Viewport } from "@xyflow/react";
import type { Workflow, WorkflowNode } from "@/lib/workflow/schema";
import { outcomeHandles, positionOf } from "./flow-mapping";
import type { Rect } from "./minimap/geometry";
import { NODE_MIN_FONT_PX, NODE_WIDTH } from "./nodes/node-size";

/**
 * The view a canvas opens with ("fit that reads"), pure so it is unit-tested and computed before the
 * first paint (no fit after the nodes are measured, no jump):
 * - a graph that fits the canvas at a legible zoom is fitted and centred (zoom capped at MAX_OPEN_ZOOM);
 * - a small graph that would fit only below the legible zoom is drawn at the legible zoom — node text
 *   at least 12 px on screen — starting from its left edge (where a run starts), centred vertically
 *   when its height fits; the minimap then shows the rest;
 * - a large graph (at the legible zoom less than OVERVIEW_SHARE of it would show) is fitted whole.
 */

/** The zoom at which the smallest node text (NODE_MIN_FONT_PX) is 12 px on screen. */
export const LEGIBLE_ZOOM = 12 / NODE_MIN_FONT_PX;
/** Tiny graphs are not blown up past this. */
export const MAX_OPEN_ZOOM = 1.2;
/** Below this share of the graph visible at the legible zoom, the graph opens fitted instead. */
export const OVERVIEW_SHARE = 0.4;
/** Screen pixels kept free around the graph; down to TIGHT_PADDING when that lets it fit legibly. */
export const VIEW_PADDING = 48;
export const TIGHT_PADDING = 16;

/** Size assumed for a node before it is measured: its width is fixed (NODE_WIDTH), its height follows its rows. */
export function estimatedNodeSize(node: WorkflowNode, incoming: number): { width: number; height: number } {
  const facts: Record<WorkflowNode["type"], number> = {
    start: 0,
    agent: 2,
    router: 1,
    tool: 2,
    orchestrator: 3,
    human: 1,
    subflow: 2,
    map: 3,
    end: 1,
    abort: 1,
  };
  const handles = node.type === "end" || node.type === "abort" ? 0 : outcomeHandles(node).length;
  const rows = facts[node.type];
  const height = 56 + (incoming > 1 ? 28 : 0) + (rows ? rows * 20 + 12 : 0) + (handles > 1 ? 10 + handles * 28 : 0);
  return { width: NODE_WIDTH, height };
}

/** Bounding box of a document's nodes at their positions, with estimated sizes (undefined when it has none). */
export function documentBounds(doc: Workflow): Rect | undefined {
  if (!doc.nodes.length) return undefined;
  const incoming = new Map<string, number>();
  for (const e of doc.edges) if (e.kind === "forward") incoming.set(e.target, (incoming.get(e.target) ?? 0) + 1);
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  doc.nodes.forEach((n, i) => {
    const p = positionOf(n, i);
    const s = estimatedNodeSize(n, incoming.get(n.id) ?? 0);
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x + s.width);
    y1 = Math.max(y1, p.y + s.height);
  });
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The zoom at which `bounds` fits `canvas` with `padding` around it (unclamped). */
export function fitZoom(bounds: Rect, canvas: { width: number; height: number }, padding = VIEW_PADDING): number {
  const w = Math.max(canvas.width - 2 * padding, 1),
    h = Math.max(canvas.height - 2 * padding, 1);
  return Math.min(w / Math.max(bounds.width, 1), h / Math.max(bounds.height, 1));
}

/** The opening viewport of a graph with `bounds` on a canvas of `canvas` size (see the file comment). */
export function openingViewport(bounds: Rect | undefined, canvas: { width: number; height: number }): Viewport {
  if (!bounds) return { x: canvas.width / 2, y: canvas.height / 2, zoom: LEGIBLE_ZOOM };
  const fit = fitZoom(bounds, canvas);
  // a graph a margin too wide for the usual padding fits legibly with a tighter one: drawn whole
  const tight = fit < LEGIBLE_ZOOM && fitZoom(bounds, canvas, TIGHT_PADDING) >= LEGIBLE_ZOOM;
  const zoom =
    fit >= LEGIBLE_ZOOM
      ? Math.min(fit, MAX_OPEN_ZOOM)
      : tight || fit >= LEGIBLE_ZOOM * OVERVIEW_SHARE
        ? LEGIBLE_ZOOM
        : fit;
  const padding = tight ? TIGHT_PADDING : VIEW_PADDING;
  const place = (start: number, size: number, room: number) =>
    size * zoom <= room - 2 * padding ? (room - size * zoom) / 2 - start * zoom : padding - start * zoom;
  return { x: place(bounds.x, bounds.width, canvas.width), y: place(bounds.y, bounds.height, canvas.height), zoom };
}

/** Whether all of `bounds` is inside the view of `transform` on a canvas of `width` × `height`. */
export function boundsInView(
  bounds: Rect,
  transform: readonly [number, number, number],
  width: number,
  height: number,
): boolean {
  const [tx, ty, zoom] = transform;
  const left = bounds.x * zoom + tx,
    top = bounds.y * zoom + ty;
  return left >= -1 && top >= -1 && left + bounds.width * zoom <= width + 1 && top + bounds.height * zoom <= height + 1;
}
