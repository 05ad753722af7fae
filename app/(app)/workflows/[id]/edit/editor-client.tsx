"use client";
import { WorkflowEditor } from "@/components/editor/workflow-editor";
import type { EditorServerActions } from "@/components/editor/editor-types";
import type { SavedAgentItem } from "@/components/editor/palette";
import type { SubflowTarget } from "@/components/editor/subflow-targets";
import type { ProviderChoice } from "@/components/editor/model-choices-context";
import type { Workflow } from "@/lib/workflow/schema";
import { RunPanel } from "./run-panel";

/** Client side of the editor route: wires the server actions and the run panel into the editor. */
export function EditorClient({
  workflowId,
  draft,
  actions,
  savedAgents,
  subflowTargets,
  providers,
  readOnlyRole,
}: {
  workflowId: string;
  draft: Workflow;
  actions: EditorServerActions;
  savedAgents?: SavedAgentItem[];
  subflowTargets?: SubflowTarget[];
  providers?: ProviderChoice[];
  readOnlyRole?: string;
}) {
  return (
    <div className="fixed inset-x-0 bottom-0 top-14 z-30 bg-background">
      <WorkflowEditor
        workflowId={workflowId}
        initialDraft={draft}
        actions={actions}
        savedAgents={savedAgents}
        subflowTargets={subflowTargets}
        providers={providers}
        renderRunPanel={(ctx) => <RunPanel {...ctx} />}
        readOnlyRole={readOnlyRole}
      />
    </div>
  );
}
