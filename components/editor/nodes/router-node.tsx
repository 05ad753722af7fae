"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { modelLabel } from "../model-label";
import { useNodeView } from "./detail-level";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** A router: in the editor, LLM-judged or expression mode and its model; one output handle per branch. */
export const RouterNode = memo(function RouterNode({ data, selected }: NodeProps<FlowNode>) {
  const view = useNodeView();
  const node = data.node;
  if (node.type !== "router") return null;
  return (
    <NodeShell data={data} selected={selected}>
      {view === "design" && <NodeLine label="Decides">{node.mode === "llm" ? "LLM judge" : "expression"}</NodeLine>}
      {view === "design" && node.mode === "llm" && (
        <NodeLine label="Model">{modelLabel(node.model, data.defaultModel)}</NodeLine>
      )}
    </NodeShell>
  );
}, sameNodeView);
