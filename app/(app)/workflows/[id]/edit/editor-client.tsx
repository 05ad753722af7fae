"use client";
import { WorkflowEditor } from "@/components/editor/workflow-editor";
import type { EditorServerActions } from "@/components/editor/editor-types";
import type { Workflow } from "@/lib/workflow/schema";
import { RunPanel } from "./run-panel";

/** Client side of the editor route: wires the server actions and the run panel into the editor. */
export function EditorClient({ workflowId, draft, actions }: { workflowId: string; draft: Workflow; actions: EditorServerActions }) {
  return (
    <div className="fixed inset-x-0 bottom-0 top-14 z-30 bg-background">
      <WorkflowEditor workflowId={workflowId} initialDraft={draft} actions={actions} renderRunPanel={(ctx) => <RunPanel {...ctx} />} />
    </div>
  );
}
