"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** Terminal node that writes the run's outputs; no output handles. */
export const EndNode = memo(function EndNode({ data, selected }: NodeProps<FlowNode>) {
  const outputs = data.node.type === "end" ? Object.keys(data.node.outputs) : [];
  return (
    <NodeShell data={data} selected={selected} terminal>
      <NodeLine label="Outputs">{outputs.length ? outputs.join(", ") : "none"}</NodeLine>
    </NodeShell>
  );
}, sameNodeView);
