"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { modelLabel } from "../model-label";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** An orchestrator: its own agent and model plus the worker agents it can hand work to. */
export const OrchestratorNode = memo(function OrchestratorNode({ data, selected }: NodeProps<FlowNode>) {
  const workers = data.node.type === "orchestrator" ? data.node.workers : [];
  return (
    <NodeShell data={data} selected={selected} accent="bg-violet-200 text-violet-950" kindLabel="Orchestrator">
      <NodeLine label="agent">{data.agent?.name ?? "none"}</NodeLine>
      <NodeLine label="model">{modelLabel(data.agent?.model, data.defaultModel)}</NodeLine>
      <NodeLine label="workers">{workers.length ? workers.join(", ") : "none"}</NodeLine>
    </NodeShell>
  );
}, sameNodeView);
