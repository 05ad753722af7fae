/**
 * Geometry of the canvas minimap (pure, unit-tested): the nodes' bounding box, the flow → minimap
 * mapping that fits it into the minimap box, and the visible part of the flow as a rectangle.
 */
export type Rect = { x: number; y: number; width: number; height: number };

/** What the minimap needs of a React Flow node (position is absolute: the editor has no sub-flows). */
export type MinimapNode = {
  position: { x: number; y: number };
  measured?: { width?: number; height?: number };
  width?: number;
  height?: number;
};

/** Size assumed for a node the canvas has not measured yet. */
export const UNMEASURED_NODE = { width: 224, height: 100 };

export function nodeRect(n: MinimapNode): Rect {
  return {
    x: n.position.x,
    y: n.position.y,
    width: n.measured?.width ?? n.width ?? UNMEASURED_NODE.width,
    height: n.measured?.height ?? n.height ?? UNMEASURED_NODE.height,
  };
}

/** Bounding box of all nodes (undefined for none), one pass. */
export function nodesBounds(nodes: readonly MinimapNode[]): Rect | undefined {
  if (!nodes.length) return undefined;
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const n of nodes) {
    const r = nodeRect(n);
    x0 = Math.min(x0, r.x);
    y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.width);
    y1 = Math.max(y1, r.y + r.height);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Longest side of the minimap box (px) and the shortest either side may get. */
export const MINIMAP_MAX = 200;
export const MINIMAP_MIN = 64;

/**
 * The minimap's box for a graph of `bounds`: its proportions (with the 8 px margin), the longer side
 * MINIMAP_MAX, the shorter at least MINIMAP_MIN — a wide, flat graph gets a wide, flat map.
 */
export function minimapBox(bounds: Rect, margin = 8): { width: number; height: number } {
  const w = Math.max(bounds.width, 1),
    h = Math.max(bounds.height, 1);
  const inner = MINIMAP_MAX - 2 * margin;
  const clamp = (v: number) => Math.round(Math.min(MINIMAP_MAX, Math.max(MINIMAP_MIN, v)));
  return w >= h
    ? { width: MINIMAP_MAX, height: clamp((inner * h) / w + 2 * margin) }
    : { width: clamp((inner * w) / h + 2 * margin), height: MINIMAP_MAX };
}

/** flow → minimap: `m = (f - origin) * scale + offset`, the bounds centred in the box with a margin. */
export type MinimapFrame = { scale: number; originX: number; originY: number; offsetX: number; offsetY: number };

export function minimapFrame(bounds: Rect, box: { width: number; height: number }, margin = 8): MinimapFrame {
  const w = Math.max(bounds.width, 1),
    h = Math.max(bounds.height, 1);
  const scale = Math.min((box.width - 2 * margin) / w, (box.height - 2 * margin) / h);
  return {
    scale,
    originX: bounds.x,
    originY: bounds.y,
    offsetX: (box.width - w * scale) / 2,
    offsetY: (box.height - h * scale) / 2,
  };
}

/** A flow rectangle in minimap pixels. */
export function toMinimap(frame: MinimapFrame, r: Rect): Rect {
  return {
    x: (r.x - frame.originX) * frame.scale + frame.offsetX,
    y: (r.y - frame.originY) * frame.scale + frame.offsetY,
    width: r.width * frame.scale,
    height: r.height * frame.scale,
  };
}

/** The part of the flow the canvas shows, from React Flow's transform [x, y, zoom] and the canvas size. */
export function visibleFlowRect(transform: readonly [number, number, number], width: number, height: number): Rect {
  const [tx, ty, zoom] = transform;
  return { x: 0 - tx / zoom, y: 0 - ty / zoom, width: width / zoom, height: height / zoom };
}

/** `r` clipped to the box (0, 0, width, height); an empty rect at the nearest edge when outside. */
export function clipRect(r: Rect, box: { width: number; height: number }): Rect {
  const x = Math.min(Math.max(r.x, 0), box.width),
    y = Math.min(Math.max(r.y, 0), box.height);
  const x1 = Math.min(Math.max(r.x + r.width, 0), box.width),
    y1 = Math.min(Math.max(r.y + r.height, 0), box.height);
  return { x, y, width: x1 - x, height: y1 - y };
}
