"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** A tool call without an LLM: which tool, its argument names, and whether it has side effects. */
export const ToolNode = memo(function ToolNode({ data, selected }: NodeProps<FlowNode>) {
  const node = data.node;
  if (node.type !== "tool") return null;
  return (
    <NodeShell data={data} selected={selected} accent="bg-teal-200 text-teal-950" kindLabel="Tool">
      <NodeLine label="tool">{node.tool.name}{node.sideEffect ? " (side effect)" : ""}</NodeLine>
      <NodeLine label="args">{Object.keys(node.args).join(", ") || "none"}</NodeLine>
    </NodeShell>
  );
}, sameNodeView);
