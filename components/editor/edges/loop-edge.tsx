"use client";
import { memo } from "react";
import { BaseEdge, EdgeLabelRenderer, type EdgeProps } from "@xyflow/react";
import clsx from "clsx";
import type { FlowEdge } from "../flow-mapping";
import { useSelectEdge } from "./select-edge";

/** How far below the lower endpoint the loop swings back (so it never hides the forward path). */
const DROP = 90;

/**
 * Loop edges: dashed, drawn as a curve that leaves the source to the right, swings under both
 * nodes and re-enters the target from the left; labelled "≤ N" with the iteration cap.
 */
export const LoopEdge = memo(function LoopEdge({ id, sourceX, sourceY, targetX, targetY, label, selected, data, markerEnd }: EdgeProps<FlowEdge>) {
  const bottom = Math.max(sourceY, targetY) + DROP;
  const path = `M ${sourceX} ${sourceY} C ${sourceX + 120} ${sourceY}, ${sourceX + 120} ${bottom}, ${sourceX} ${bottom}`
    + ` L ${targetX} ${bottom} C ${targetX - 120} ${bottom}, ${targetX - 120} ${targetY}, ${targetX} ${targetY}`;
  const invalid = data.issues.length > 0;
  const select = useSelectEdge(id);
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd}
        style={{ strokeDasharray: "6 4", strokeWidth: selected ? 2.5 : 1.5, stroke: invalid ? "#ef4444" : data.diff === "added" ? "#10b981" : "#d97706" }} />
      <EdgeLabelRenderer>
        <div data-testid={`loop-label-${id}`}
          style={{ transform: `translate(-50%, -50%) translate(${(sourceX + targetX) / 2}px, ${bottom}px)` }}
          className={clsx("nodrag nopan absolute rounded border bg-amber-50 px-1.5 text-[11px] font-semibold text-amber-900",
            invalid ? "border-red-500" : "border-amber-400", "pointer-events-auto")}
          title={invalid ? data.issues.join("\n") : "Loop edge: maximum iterations (click to edit)"} onClick={select}>
          ↺ {label}
        </div>
      </EdgeLabelRenderer>
    </>
  );
});
