"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { useNodeView } from "./detail-level";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** A tool call without an LLM: which tool and, in the editor, its argument names and whether it has side effects. */
export const ToolNode = memo(function ToolNode({ data, selected }: NodeProps<FlowNode>) {
  const view = useNodeView();
  const node = data.node;
  if (node.type !== "tool") return null;
  return (
    <NodeShell data={data} selected={selected}>
      <NodeLine label="Tool">
        {node.tool.name}
        {view === "design" && node.sideEffect ? " (side effect)" : ""}
      </NodeLine>
      {view === "design" && <NodeLine label="Args">{Object.keys(node.args).join(", ") || "none"}</NodeLine>}
    </NodeShell>
  );
}, sameNodeView);
