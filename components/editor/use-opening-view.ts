"use client";
import { useReactFlow, useStoreApi } from "@xyflow/react";
import { useCallback } from "react";
import { openingViewport } from "./fit-view";
import { nodesBounds } from "./minimap/geometry";

/**
 * Moves the canvas to the view a graph opens with (fit-view.ts), from the nodes as measured now — after
 * an auto-layout or an import, so the new graph reads as the opened one did. Animated over `duration` ms.
 */
export function useOpeningView(): (duration?: number) => void {
  const store = useStoreApi();
  const { setViewport } = useReactFlow();
  return useCallback(
    (duration = 300) => {
      const { nodes, width, height } = store.getState();
      void setViewport(openingViewport(nodesBounds(nodes), { width, height }), { duration });
    },
    [store, setViewport],
  );
}
