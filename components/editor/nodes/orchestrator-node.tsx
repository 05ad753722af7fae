"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { modelLabel } from "../model-label";
import { useNodeView } from "./detail-level";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** An orchestrator: its own agent and model plus, in the editor, the worker agents it can hand work to. */
export const OrchestratorNode = memo(function OrchestratorNode({ data, selected }: NodeProps<FlowNode>) {
  const view = useNodeView();
  const workers = data.node.type === "orchestrator" ? data.node.workers : [];
  return (
    <NodeShell data={data} selected={selected}>
      <NodeLine label="Agent">{data.agent?.name ?? "none"}</NodeLine>
      <NodeLine label="Model">{modelLabel(data.agent?.model, data.defaultModel)}</NodeLine>
      {view === "design" && <NodeLine label="Workers">{workers.length ? workers.join(", ") : "none"}</NodeLine>}
    </NodeShell>
  );
}, sameNodeView);
