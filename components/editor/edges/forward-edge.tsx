"use client";
import { memo } from "react";
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import { DIFF_TERMS } from "@/components/terms/words";
import type { FlowEdge } from "../flow-mapping";
import { useSelectEdge } from "./select-edge";

/** Forward (data + control) edge: a bezier, red with its issues in a tooltip when invalid. */
export const ForwardEdge = memo(function ForwardEdge(props: EdgeProps<FlowEdge>) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected, data, markerEnd, label } =
    props;
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const invalid = data.issues.length > 0;
  const select = useSelectEdge(id);
  const stroke = data.diff
    ? DIFF_TERMS[data.diff].stroke
    : invalid
      ? "var(--danger)"
      : selected
        ? "var(--primary)"
        : "#a1a1aa";
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={{ strokeWidth: selected ? 2.5 : 1.75, stroke }} />
      {(label || invalid) && (
        <EdgeLabelRenderer>
          <div
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            title={data.issues.join("\n")}
            onClick={select}
            className="nodrag nopan pointer-events-auto absolute cursor-pointer rounded-full border border-zinc-200 bg-white px-2 py-0.5 text-xs text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
          >
            {invalid ? `⚠ ${label ?? ""}` : label}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});
