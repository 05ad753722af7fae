import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/session";
import { getWorkflow, blankWorkflowDocument } from "@/lib/db/workflows";
import { getVersionAction, listVersionsAction, restoreVersionAction, saveDraftAction, saveVersionAction } from "./actions";
import { EditorClient } from "./editor-client";

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Edit workflow" };

/** The visual editor of one of the user's workflows (another user's id is a 404). */
export default async function EditWorkflowPage({ params }: Props) {
  const { id } = await params;
  const user = await requireUser(`/workflows/${id}/edit`);
  const workflow = await getWorkflow(user.id, id);
  if (!workflow) notFound();
  const draft = workflow.document ?? blankWorkflowDocument(workflow.name);
  return (
    <EditorClient workflowId={id} draft={draft}
      actions={{ saveDraft: saveDraftAction, saveVersion: saveVersionAction, listVersions: listVersionsAction, getVersion: getVersionAction, restoreVersion: restoreVersionAction }} />
  );
}
