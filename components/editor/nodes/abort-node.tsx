"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { useNodeView } from "./detail-level";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** Terminal node that aborts the run with a templated reason (shown in the editor; a run shows the reason it gave). */
export const AbortNode = memo(function AbortNode({ data, selected }: NodeProps<FlowNode>) {
  const view = useNodeView();
  const reason = data.node.type === "abort" ? data.node.reason : "";
  return (
    <NodeShell data={data} selected={selected} terminal>
      {view === "design" && <NodeLine label="Reason">{reason || "none"}</NodeLine>}
    </NodeShell>
  );
}, sameNodeView);
