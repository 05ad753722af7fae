"use client";
import { WorkflowEditor } from "@/components/editor/workflow-editor";
import type { EditorServerActions } from "@/components/editor/editor-types";
import type { SavedAgentItem } from "@/components/editor/palette";
import type { Workflow } from "@/lib/workflow/schema";
import { RunPanel } from "./run-panel";

/** Client side of the editor route: wires the server actions and the run panel into the editor. */
export function EditorClient({ workflowId, draft, actions, savedAgents }: { workflowId: string; draft: Workflow; actions: EditorServerActions; savedAgents?: SavedAgentItem[] }) {
  return (
    <div className="fixed inset-x-0 bottom-0 top-14 z-30 bg-background">
      <WorkflowEditor workflowId={workflowId} initialDraft={draft} actions={actions} savedAgents={savedAgents} renderRunPanel={(ctx) => <RunPanel {...ctx} />} />
    </div>
  );
}
