"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** Terminal node that aborts the run with a templated reason. */
export const AbortNode = memo(function AbortNode({ data, selected }: NodeProps<FlowNode>) {
  const reason = data.node.type === "abort" ? data.node.reason : "";
  return (
    <NodeShell data={data} selected={selected} accent="bg-red-700 text-white" kindLabel="✕ Abort" terminal>
      <NodeLine label="reason">{reason}</NodeLine>
    </NodeShell>
  );
}, sameNodeView);
