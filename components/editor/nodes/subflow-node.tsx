"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { NodeOf } from "@/lib/workflow/schema";
import type { FlowNode } from "../flow-mapping";
import { findTarget, type SubflowTargets } from "../subflow-targets";
import { useSubflowTargets } from "../subflow-targets-context";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/**
 * What a subflow node says it runs: "another workflow" where nothing is known (a share view's
 * canvas, which has no workflow ids) or where only some workflows are known (the owner's run page
 * names those its steps started); in the editor "Choose a workflow" until one is chosen, then its
 * name, or "missing workflow" when the owner has no such workflow.
 */
export function subflowLabel(node: NodeOf<"subflow">, subflows: SubflowTargets | undefined): string {
  if (!subflows) return "another workflow";
  if (node.workflowId.trim() === "") return subflows.partial ? "another workflow" : "Choose a workflow";
  return findTarget(subflows, node.workflowId)?.name ?? (subflows.partial ? "another workflow" : "missing workflow");
}

/** A subflow: the workflow it runs, the version when one is pinned, and the input keys it maps; one handle, "done". */
export const SubflowNode = memo(function SubflowNode({ data, selected }: NodeProps<FlowNode>) {
  const subflows = useSubflowTargets();
  const node = data.node;
  if (node.type !== "subflow") return null;
  const keys = Object.keys(node.inputs);
  return (
    <NodeShell data={data} selected={selected} accent="bg-cyan-200 text-cyan-950" kindLabel="Subflow">
      <NodeLine label="runs"><span data-testid="node-subflow-workflow">{subflowLabel(node, subflows)}</span></NodeLine>
      {node.version !== undefined && <NodeLine label="version"><span data-testid="node-subflow-version">v{node.version} (pinned)</span></NodeLine>}
      <NodeLine label="inputs"><span data-testid="node-subflow-inputs">{keys.join(", ") || "none"}</span></NodeLine>
    </NodeShell>
  );
}, sameNodeView);
