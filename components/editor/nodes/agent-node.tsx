"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { modelLabel } from "../model-label";
import { useNodeView } from "./detail-level";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** An agent at a glance: its agent, model ("Scripted demo model" for the scripted server) and, in the editor, its tools. */
export const AgentNode = memo(function AgentNode({ data, selected }: NodeProps<FlowNode>) {
  const view = useNodeView();
  const { agent } = data;
  const ref = data.node.type === "agent" ? data.node.agent : "";
  return (
    <NodeShell data={data} selected={selected}>
      <NodeLine label="Agent">{agent?.name ?? (ref ? `${ref} (missing)` : "none")}</NodeLine>
      <NodeLine label="Model">
        <span data-testid="node-model">{modelLabel(agent?.model, data.defaultModel)}</span>
      </NodeLine>
      {view === "design" && agent && agent.tools.length > 0 && (
        <NodeLine label="Tools">{agent.tools.map((t) => t.name).join(", ")}</NodeLine>
      )}
    </NodeShell>
  );
}, sameNodeView);
