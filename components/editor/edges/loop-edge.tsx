"use client";
import { memo, useCallback } from "react";
import { BaseEdge, EdgeLabelRenderer, useStore, type EdgeProps, type ReactFlowState } from "@xyflow/react";
import clsx from "clsx";
import { DIFF_TERMS, loopHint } from "@/components/terms/words";
import type { FlowEdge } from "../flow-mapping";
import { useSelectEdge } from "./select-edge";

/**
 * Control-point offset of the loop's ends: the curve bulges about ¾ of it sideways, so it turns within
 * the gap next to its node instead of crossing the neighbour.
 */
const BULGE = 56;
/** Clearance between the loop's run and the nodes it passes under. */
const CLEARANCE = 28;
/** Extra depth per lane (a loop spanning a shorter one runs below it). */
const LANE_GAP = 30;

type Box = { x0: number; x1: number; y0: number; y1: number };

/**
 * The y of a loop's run under the canvas: below both ends, then pushed below every node that the run
 * would cross between its two bulges, until it crosses none (nodes of other rows included).
 */
export function loopRunY(boxes: readonly Box[], from: { x: number; y: number }, to: { x: number; y: number }): number {
  const x0 = Math.min(from.x, to.x) - BULGE / 2,
    x1 = Math.max(from.x, to.x) + BULGE / 2;
  const inSpan = boxes.filter((b) => b.x1 > x0 && b.x0 < x1);
  let y = Math.max(from.y, to.y) + CLEARANCE * 2;
  for (let moved = true; moved;) {
    moved = false;
    for (const b of inSpan) {
      if (y > b.y0 - CLEARANCE && y < b.y1 + CLEARANCE) {
        y = b.y1 + CLEARANCE;
        moved = true;
      }
    }
  }
  return Math.round(y);
}

const boxesOf = (s: ReactFlowState): Box[] => {
  const out: Box[] = [];
  for (const n of s.nodeLookup.values()) {
    const p = n.internals.positionAbsolute;
    const w = n.measured.width ?? 0,
      h = n.measured.height ?? 0;
    out.push({ x0: p.x, x1: p.x + w, y0: p.y, y1: p.y + h });
  }
  return out;
};

/**
 * Loop edges: dashed and amber, leaving the source to the right, running back under the nodes they
 * span (below any node in the way, one lane lower per shorter loop under the same stretch) and
 * entering the target from the left; labelled with the iteration cap (components/terms loopLabel).
 */
export const LoopEdge = memo(function LoopEdge({
  id,
  sourceX,
  sourceY,
  targetX,
  targetY,
  label,
  selected,
  data,
  markerEnd,
}: EdgeProps<FlowEdge>) {
  const runY = useStore(
    useCallback(
      (s: ReactFlowState) => loopRunY(boxesOf(s), { x: sourceX, y: sourceY }, { x: targetX, y: targetY }),
      [sourceX, sourceY, targetX, targetY],
    ),
  );
  const bottom = runY + (data.lane ?? 0) * LANE_GAP;
  const path =
    `M ${sourceX} ${sourceY} C ${sourceX + BULGE} ${sourceY}, ${sourceX + BULGE} ${bottom}, ${sourceX} ${bottom}` +
    ` L ${targetX} ${bottom} C ${targetX - BULGE} ${bottom}, ${targetX - BULGE} ${targetY}, ${targetX} ${targetY}`;
  const invalid = data.issues.length > 0;
  const select = useSelectEdge(id);
  const stroke = invalid ? "var(--danger)" : data.diff ? DIFF_TERMS[data.diff].stroke : "#d97706";
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        style={{ strokeDasharray: "6 4", strokeWidth: selected ? 2.5 : 1.75, stroke }}
      />
      <EdgeLabelRenderer>
        <div
          data-testid={`loop-label-${id}`}
          style={{ transform: `translate(-50%, -50%) translate(${(sourceX + targetX) / 2}px, ${bottom}px)` }}
          className={clsx(
            "nodrag nopan pointer-events-auto absolute cursor-pointer rounded-full border bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900",
            "dark:bg-amber-950 dark:text-amber-200",
            invalid ? "border-danger" : "border-amber-400 dark:border-amber-600",
          )}
          title={invalid ? data.issues.join("\n") : loopHint(data.edge.maxIterations)}
          onClick={select}
        >
          {label}
        </div>
      </EdgeLabelRenderer>
    </>
  );
});
