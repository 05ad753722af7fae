"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { modelLabel } from "../model-label";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** An agent at a glance: its agent, model ("Scripted demo model" for the scripted server) and tools. */
export const AgentNode = memo(function AgentNode({ data, selected }: NodeProps<FlowNode>) {
  const { agent } = data;
  const ref = data.node.type === "agent" ? data.node.agent : "";
  return (
    <NodeShell data={data} selected={selected} accent="bg-sky-200 text-sky-950" kindLabel="Agent">
      <NodeLine label="agent">{agent?.name ?? (ref ? `${ref} (missing)` : "none")}</NodeLine>
      <NodeLine label="model"><span data-testid="node-model">{modelLabel(agent?.model, data.defaultModel)}</span></NodeLine>
      {agent && agent.tools.length > 0 && <NodeLine label="tools">{agent.tools.map((t) => t.name).join(", ")}</NodeLine>}
    </NodeShell>
  );
}, sameNodeView);
