"use client";
import { Background, useStore, type ReactFlowState } from "@xyflow/react";
import { createContext, memo, useCallback, useContext, type ReactNode } from "react";

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
export const isZoomedOut = (s: ReactFlowState) => s.transform[2] < DETAIL_ZOOM && s.nodeLookup.size >= COMPACT_MIN_NODES;

/**
 * Whether nodes draw compact: a large graph zoomed out ({@link isZoomedOut}) or, until the canvas has
 * `fitted` its first view, any large graph — it is drawn at zoom 1 before the fit and would otherwise be
 * built in full detail only to be rebuilt compact a frame later (the fit of a large graph almost always
 * lands below DETAIL_ZOOM; when it does not, the nodes switch to full detail once, as on any zoom-in).
 */
export const compactNodes = (s: ReactFlowState, fitted: boolean): boolean => isZoomedOut(s) || (!fitted && s.nodeLookup.size >= COMPACT_MIN_NODES);

/**
 * One store subscription for the whole canvas (a boolean, so it changes only when the zoom crosses
 * {@link DETAIL_ZOOM} or the first fit lands); nodes read it from context, so panning and zooming
 * re-render no node until then.
 */
export function DetailLevelProvider({ children, fitted = true }: { children: ReactNode; fitted?: boolean }) {
  const compact = useStore(useCallback((s: ReactFlowState) => compactNodes(s, fitted), [fitted]));
  return <CompactContext.Provider value={compact}>{children}</CompactContext.Provider>;
}

/** True while a large graph is zoomed out below {@link DETAIL_ZOOM} (see {@link isZoomedOut}). */
export const useCompactNodes = (): boolean => useContext(CompactContext);

/**
 * The canvas' dot grid, left out while zoomed out: its pattern moves with every pan step, so it
 * repainted the whole canvas each frame (the nodes' layer only moves), and below DETAIL_ZOOM its dots
 * would be under 8 px apart anyway.
 */
export const DetailBackground = memo(function DetailBackground() {
  return useCompactNodes() ? null : <Background gap={16} />;
});
