"use client";
import { ReactFlowProvider } from "@xyflow/react";
import { useMemo } from "react";
import type { NodeRunState } from "@/components/editor/flow-mapping";
import { WorkflowCanvas } from "@/components/editor/workflow-canvas";
import type { Workflow } from "@/lib/workflow/schema";

/** The workflow graph, read-only, with each node's live status and iteration (the editor's canvas, reused as is). */
export function RunGraph({ doc, overlay }: { doc: Workflow; overlay: ReadonlyMap<string, NodeRunState> }) {
  const flowOverlay = useMemo(() => ({ run: overlay }), [overlay]);
  return (
    <div className="h-[420px] overflow-hidden rounded-lg border border-border bg-surface" data-testid="run-graph">
      <ReactFlowProvider>
        <WorkflowCanvas doc={doc} overlay={flowOverlay} readOnly />
      </ReactFlowProvider>
    </div>
  );
}
