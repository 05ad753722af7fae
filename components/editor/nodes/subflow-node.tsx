"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { NodeOf } from "@/lib/workflow/schema";
import type { FlowNode } from "../flow-mapping";
import { findTarget, type SubflowTargets } from "../subflow-targets";
import { useSubflowTargets } from "../subflow-targets-context";
import { useNodeView } from "./detail-level";
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

/**
 * A subflow: the workflow it runs and, in the editor, the version when one is pinned and the input keys
 * it maps; one handle, "done".
 */
export const SubflowNode = memo(function SubflowNode({ data, selected }: NodeProps<FlowNode>) {
  const view = useNodeView();
  const subflows = useSubflowTargets();
  const node = data.node;
  if (node.type !== "subflow") return null;
  const keys = Object.keys(node.inputs);
  return (
    <NodeShell data={data} selected={selected}>
      <NodeLine label="Runs">
        <span data-testid="node-subflow-workflow">{subflowLabel(node, subflows)}</span>
      </NodeLine>
      {view === "design" && node.version !== undefined && (
        <NodeLine label="Version">
          <span data-testid="node-subflow-version">v{node.version} (pinned)</span>
        </NodeLine>
      )}
      {view === "design" && (
        <NodeLine label="Inputs">
          <span data-testid="node-subflow-inputs">{keys.join(", ") || "none"}</span>
        </NodeLine>
      )}
    </NodeShell>
  );
}, sameNodeView);
