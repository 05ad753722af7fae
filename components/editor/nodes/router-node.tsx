"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { modelLabel } from "../model-label";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** A router: LLM-judged or expression mode; one output handle per branch. */
export const RouterNode = memo(function RouterNode({ data, selected }: NodeProps<FlowNode>) {
  const node = data.node;
  if (node.type !== "router") return null;
  return (
    <NodeShell data={data} selected={selected} accent="bg-amber-200 text-amber-950" kindLabel="Router">
      <NodeLine label="mode">{node.mode === "llm" ? "LLM judge" : "expression"}</NodeLine>
      {node.mode === "llm" && <NodeLine label="model">{modelLabel(node.model, data.defaultModel)}</NodeLine>}
    </NodeShell>
  );
}, sameNodeView);
