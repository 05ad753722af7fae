"use client";
import { ReactFlowProvider } from "@xyflow/react";
import { useMemo } from "react";
import type { NodeRunState } from "@/components/editor/flow-mapping";
import { WorkflowCanvas } from "@/components/editor/workflow-canvas";
import type { Workflow } from "@/lib/workflow/schema";

/**
 * The workflow graph, read-only, with each node's live status and iteration: the editor's canvas with
 * run facts only (NodeView "run"), so the owner's dashboard and the share page draw the same words.
 */
export function RunGraph({ doc, overlay }: { doc: Workflow; overlay: ReadonlyMap<string, NodeRunState> }) {
  const flowOverlay = useMemo(() => ({ run: overlay }), [overlay]);
  return (
    <div
      className="h-[min(560px,65vh)] min-h-[380px] overflow-hidden rounded-lg border border-border bg-surface"
      data-testid="run-graph"
    >
      <ReactFlowProvider>
        <WorkflowCanvas doc={doc} overlay={flowOverlay} readOnly view="run" />
      </ReactFlowProvider>
    </div>
  );
}
