"use client";
import { createContext, useCallback, useContext } from "react";

/**
 * Selecting one edge from its label (labels sit above the edge's own hit area). The canvas provides
 * the function once; edges read it from context rather than each calling useReactFlow(), which
 * subscribes to the store (B3: one subscription per edge, run on every pan and drag frame).
 */
const SelectEdgeContext = createContext<(id: string) => void>(() => {});

export const SelectEdgeProvider = SelectEdgeContext.Provider;

/** A click handler that selects edge `id` alone. */
export function useSelectEdge(id: string): () => void {
  const select = useContext(SelectEdgeContext);
  return useCallback(() => select(id), [select, id]);
}
