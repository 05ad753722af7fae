"use client";
import { ControlButton, Panel, useReactFlow, useStore, useStoreApi, type ReactFlowState } from "@xyflow/react";
import { memo, useCallback, useEffect, useMemo, useRef, type PointerEvent, type WheelEvent } from "react";
import { boundsInView } from "../fit-view";
import type { FlowNode } from "../flow-mapping";
import {
  clipRect,
  minimapBox,
  minimapFrame,
  nodeRect,
  toMinimap,
  visibleFlowRect,
  type MinimapFrame,
  type Rect,
} from "./geometry";

const nodesOf = (s: ReactFlowState) => s.nodes as FlowNode[];

/** Whether the whole graph is in view (a boolean, so its subscribers re-render only when it flips). */
function useGraphInView(bounds: Rect | undefined): boolean {
  return useStore(
    useCallback((s: ReactFlowState) => !bounds || boundsInView(bounds, s.transform, s.width, s.height), [bounds]),
  );
}

/**
 * The canvas minimap, drawn on a <canvas> with the visible area as a separate frame on top. React
 * Flow's <MiniMap> is an SVG whose viewBox covers the nodes *and* the viewport, so every pan step
 * re-laid out and repainted one rect per node (B3: a quarter of the main thread while panning 500
 * nodes). Here the node layer is redrawn only when nodes change; panning moves one <div>.
 * Drag on it to pan, wheel to zoom (as React Flow's `pannable zoomable` minimap). Its box takes the
 * proportions of the graph's `bounds` (minimapBox; the canvas computes them once for this and the toggle). `show` undefined: shown while part of the graph is out of view
 * (a graph that fits on screen needs no map); true/false: the user's choice (MinimapToggle).
 */
export const CanvasMinimap = memo(function CanvasMinimap({
  colorMode,
  show,
  bounds,
}: {
  colorMode: "light" | "dark";
  show?: boolean;
  bounds: Rect | undefined;
}) {
  const nodes = useStore(nodesOf);
  const inView = useGraphInView(bounds);
  if (!(show ?? !inView) || !bounds) return null;
  return <MinimapPanel colorMode={colorMode} nodes={nodes} bounds={bounds} />;
});

/** The drawn minimap (mounted only while shown). */
function MinimapPanel({ colorMode, nodes, bounds }: { colorMode: "light" | "dark"; nodes: FlowNode[]; bounds: Rect }) {
  const box = useMemo(() => minimapBox(bounds), [bounds]);
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useMemo(() => minimapFrame(bounds, box), [bounds, box]);
  const colors = useRef<{ mode: string; fill: string; stroke: string } | undefined>(undefined);

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext("2d");
    if (!el || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    if (el.width !== box.width * dpr || el.height !== box.height * dpr) {
      el.width = box.width * dpr;
      el.height = box.height * dpr;
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, box.width, box.height);
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
  }, [nodes, frame, colorMode, box]);

  const { setViewport, zoomTo } = useReactFlow();
  const store = useStoreApi();
  const last = useRef<{ x: number; y: number } | undefined>(undefined);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    last.current = { x: e.clientX, y: e.clientY };
  };
  // Dragging moves the visible-area frame with the pointer.
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!last.current) return;
    const [tx, ty, zoom] = store.getState().transform;
    const dx = (e.clientX - last.current.x) / frame.scale,
      dy = (e.clientY - last.current.y) / frame.scale;
    last.current = { x: e.clientX, y: e.clientY };
    void setViewport({ x: tx - dx * zoom, y: ty - dy * zoom, zoom });
  };
  const onPointerUp = () => {
    last.current = undefined;
  };
  // React Flow's wheel step: 2^(-deltaY × 0.002) per pixel mode event (0.05 per line).
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    const zoom = store.getState().transform[2];
    const step = e.deltaMode === 1 ? 0.05 : e.deltaMode ? 1 : 0.002;
    void zoomTo(zoom * 2 ** (-e.deltaY * step));
  };

  return (
    <Panel
      position="bottom-right"
      className="react-flow__minimap nowheel nopan cursor-grab overflow-hidden active:cursor-grabbing"
      style={box}
      data-testid="minimap"
      aria-label="Mini map"
      role="img"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onWheel={onWheel}
    >
      <canvas ref={canvas} className="block" style={box} />
      <VisibleArea frame={frame} box={box} />
    </Panel>
  );
}

/** The controls' minimap button: shows or hides the minimap whatever the graph's size (the choice sticks while the canvas lives). */
export function MinimapToggle({
  choice,
  onChoose,
  bounds,
}: {
  choice: boolean | undefined;
  onChoose: (show: boolean) => void;
  bounds: Rect | undefined;
}) {
  const inView = useGraphInView(bounds);
  const shown = choice ?? !inView;
  return (
    <ControlButton
      onClick={() => onChoose(!shown)}
      title={shown ? "Hide the minimap" : "Show the minimap"}
      aria-label={shown ? "Hide the minimap" : "Show the minimap"}
      aria-pressed={shown}
      data-testid="minimap-toggle"
    >
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinejoin="round" aria-hidden>
        <path d="M3 6l6-3 6 3 6-3v15l-6 3-6-3-6 3z" />
        <path d="M9 3v15M15 6v15" />
      </svg>
    </ControlButton>
  );
}

const viewOf = (s: ReactFlowState) => ({ transform: s.transform, width: s.width, height: s.height });
const sameView = (a: ReturnType<typeof viewOf>, b: ReturnType<typeof viewOf>) =>
  a.transform === b.transform && a.width === b.width && a.height === b.height;

/** The canvas' visible area on the minimap: the only part that changes while panning. */
const VisibleArea = memo(function VisibleArea({
  frame,
  box,
}: {
  frame: MinimapFrame;
  box: { width: number; height: number };
}) {
  const { transform, width, height } = useStore(viewOf, sameView);
  // Clipped to the minimap so all four sides show even when everything is visible.
  const r = clipRect(toMinimap(frame, visibleFlowRect(transform, width, height)), box);
  return (
    <div
      aria-hidden
      className="pointer-events-none absolute left-0 top-0 rounded-sm border-2 will-change-transform border-sky-500/70 bg-sky-500/5"
      style={{ width: r.width, height: r.height, transform: `translate(${r.x}px, ${r.y}px)` }}
    />
  );
});
