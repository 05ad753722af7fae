"use client";
import { Panel, useReactFlow, useStore, useStoreApi, type ReactFlowState } from "@xyflow/react";
import { memo, useEffect, useMemo, useRef, type PointerEvent, type WheelEvent } from "react";
import type { FlowNode } from "../flow-mapping";
import { clipRect, minimapFrame, nodeRect, nodesBounds, toMinimap, visibleFlowRect, type MinimapFrame } from "./geometry";

const BOX = { width: 200, height: 150 };

const nodesOf = (s: ReactFlowState) => s.nodes as FlowNode[];

/**
 * The canvas minimap, drawn on a <canvas> with the visible area as a separate frame on top. React
 * Flow's <MiniMap> is an SVG whose viewBox covers the nodes *and* the viewport, so every pan step
 * re-laid out and repainted one rect per node (B3: a quarter of the main thread while panning 500
 * nodes). Here the node layer is redrawn only when nodes change; panning moves one <div>.
 * Drag on it to pan, wheel to zoom (as React Flow's `pannable zoomable` minimap).
 */
export const CanvasMinimap = memo(function CanvasMinimap({ colorMode }: { colorMode: "light" | "dark" }) {
  const nodes = useStore(nodesOf);
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useMemo(() => {
    const bounds = nodesBounds(nodes);
    return bounds ? minimapFrame(bounds, BOX) : undefined;
  }, [nodes]);
  const colors = useRef<{ mode: string; fill: string; stroke: string } | undefined>(undefined);

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext("2d");
    if (!el || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    if (el.width !== BOX.width * dpr) {
      el.width = BOX.width * dpr;
      el.height = BOX.height * dpr;
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, BOX.width, BOX.height);
    if (!frame) return;
    if (colors.current?.mode !== colorMode) {
      // React Flow's minimap variables (set from the app's theme tokens in globals.css).
      const css = getComputedStyle(el);
      colors.current = {
        mode: colorMode,
        fill: css.getPropertyValue("--xy-minimap-node-background-color").trim() || "#e2e2e2",
        stroke: css.getPropertyValue("--xy-minimap-node-stroke-color").trim() || "transparent",
      };
    }
    ctx.fillStyle = colors.current.fill;
    ctx.strokeStyle = colors.current.stroke;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const n of nodes) {
      if (n.hidden) continue;
      const r = toMinimap(frame, nodeRect(n));
      ctx.rect(r.x, r.y, Math.max(r.width, 1), Math.max(r.height, 1));
    }
    ctx.fill();
    ctx.stroke();
  }, [nodes, frame, colorMode]);

  const { setViewport, zoomTo } = useReactFlow();
  const store = useStoreApi();
  const last = useRef<{ x: number; y: number } | undefined>(undefined);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    last.current = { x: e.clientX, y: e.clientY };
  };
  // Dragging moves the visible-area frame with the pointer.
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!last.current || !frame) return;
    const [tx, ty, zoom] = store.getState().transform;
    const dx = (e.clientX - last.current.x) / frame.scale, dy = (e.clientY - last.current.y) / frame.scale;
    last.current = { x: e.clientX, y: e.clientY };
    void setViewport({ x: tx - dx * zoom, y: ty - dy * zoom, zoom });
  };
  const onPointerUp = () => { last.current = undefined; };
  // React Flow's wheel step: 2^(-deltaY × 0.002) per pixel mode event (0.05 per line).
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    const zoom = store.getState().transform[2];
    const step = e.deltaMode === 1 ? 0.05 : e.deltaMode ? 1 : 0.002;
    void zoomTo(zoom * 2 ** (-e.deltaY * step));
  };

  return (
    <Panel position="bottom-right" className="react-flow__minimap nowheel nopan cursor-grab overflow-hidden active:cursor-grabbing"
      style={BOX} data-testid="minimap" aria-label="Mini map" role="img"
      onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerCancel={onPointerUp} onWheel={onWheel}>
      <canvas ref={canvas} className="block" style={BOX} />
      {frame && <VisibleArea frame={frame} />}
    </Panel>
  );
});

const viewOf = (s: ReactFlowState) => ({ transform: s.transform, width: s.width, height: s.height });
const sameView = (a: ReturnType<typeof viewOf>, b: ReturnType<typeof viewOf>) =>
  a.transform === b.transform && a.width === b.width && a.height === b.height;

/** The canvas' visible area on the minimap: the only part that changes while panning. */
const VisibleArea = memo(function VisibleArea({ frame }: { frame: MinimapFrame }) {
  const { transform, width, height } = useStore(viewOf, sameView);
  // Clipped to the minimap so all four sides show even when everything is visible.
  const r = clipRect(toMinimap(frame, visibleFlowRect(transform, width, height)), BOX);
  return (
    <div aria-hidden className="pointer-events-none absolute left-0 top-0 rounded-sm border-2 will-change-transform border-sky-500/70 bg-sky-500/5"
      style={{ width: r.width, height: r.height, transform: `translate(${r.x}px, ${r.y}px)` }} />
  );
});
