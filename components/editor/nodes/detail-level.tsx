"use client";
import { Background, useStore, type ReactFlowState } from "@xyflow/react";
import { createContext, memo, useContext, type ReactNode } from "react";

/**
 * Zoom below which the nodes of a large graph draw only their frame, header (kind, badges) and name,
 * with unlabelled handles: their body text would be under 6 px there anyway. A large graph at fit zoom
 * (benchmark B3: 500 nodes fit at ~0.15) then costs a fraction of the DOM, style and paint work.
 */
export const DETAIL_ZOOM = 0.5;

/**
 * Graphs with fewer nodes keep full detail at every zoom: they cost little to draw, and a typical
 * workflow of 5–15 nodes often fits a narrow canvas just below DETAIL_ZOOM, where the agent, model and
 * branch labels are what the user is looking at.
 */
export const COMPACT_MIN_NODES = 60;

const CompactContext = createContext(false);

/**
 * Store selector: a large graph ({@link COMPACT_MIN_NODES}+ nodes) zoomed out below {@link DETAIL_ZOOM}
 * (a boolean, so subscribers re-render only on crossing).
 */
export const isZoomedOut = (s: ReactFlowState) =>
  s.transform[2] < DETAIL_ZOOM && s.nodeLookup.size >= COMPACT_MIN_NODES;

/**
 * One store subscription for the whole canvas (a boolean, so it changes only when the zoom crosses
 * {@link DETAIL_ZOOM}); nodes read it from context, so panning and zooming re-render no node until
 * then. The canvas opens at its final zoom (fit-view.ts), so a large graph is built compact at once.
 */
export function DetailLevelProvider({ children }: { children: ReactNode }) {
  const compact = useStore(isZoomedOut);
  return <CompactContext.Provider value={compact}>{children}</CompactContext.Provider>;
}

/** Sets the detail level directly, without a canvas (component tests; the canvas uses DetailLevelProvider). */
export const CompactNodesProvider = CompactContext.Provider;

/** True while a large graph is zoomed out below {@link DETAIL_ZOOM} (see {@link isZoomedOut}). */
export const useCompactNodes = (): boolean => useContext(CompactContext);

/**
 * What node bodies show: `design` (the editor: every fact, prompt and reason previews included) or
 * `run` (a run's dashboard and its share page: only the facts a shared graph carries, so both pages
 * say the same words; the run's own step inspector shows the rest).
 */
export type NodeView = "design" | "run";

const NodeViewContext = createContext<NodeView>("design");

export const NodeViewProvider = NodeViewContext.Provider;

/** The canvas' node view (see {@link NodeView}). */
export const useNodeView = (): NodeView => useContext(NodeViewContext);

/**
 * The canvas' dot grid, left out while zoomed out: its pattern moves with every pan step, so it
 * repainted the whole canvas each frame (the nodes' layer only moves), and below DETAIL_ZOOM its dots
 * would be under 8 px apart anyway.
 */
export const DetailBackground = memo(function DetailBackground() {
  return useCompactNodes() ? null : <Background gap={16} />;
});
