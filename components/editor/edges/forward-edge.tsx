"use client";
import { memo } from "react";
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import type { FlowEdge } from "../flow-mapping";
import { useSelectEdge } from "./select-edge";

/** Forward (data + control) edge: a bezier, red with its issues in a tooltip when invalid. */
export const ForwardEdge = memo(function ForwardEdge(props: EdgeProps<FlowEdge>) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected, data, markerEnd, label } = props;
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const invalid = data.issues.length > 0;
  const select = useSelectEdge(id);
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd}
        style={{ strokeWidth: selected ? 2.5 : 1.5, stroke: data.diff === "added" ? "#10b981" : data.diff === "changed" ? "#f59e0b" : invalid ? "#ef4444" : selected ? "#0284c7" : "#71717a" }} />
      {(label || invalid) && (
        <EdgeLabelRenderer>
          <div style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            title={data.issues.join("\n")} onClick={select}
            className="nodrag nopan pointer-events-auto absolute rounded bg-white px-1 text-[10px] text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200">
            {invalid ? `⚠ ${label ?? ""}` : label}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});
