import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireAccess } from "@/lib/auth/access";
import { allows } from "@/lib/roles";
import { listAgents } from "@/lib/db/agents";
import { listProviders } from "@/lib/db/providers";
import { listSubflowTargets } from "@/lib/db/subflow-targets";
import { getWorkflow, blankWorkflowDocument } from "@/lib/db/workflows";
import {
  getVersionAction,
  listVersionsAction,
  restoreVersionAction,
  saveDraftAction,
  saveVersionAction,
} from "./actions";
import { EditorClient } from "./editor-client";

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Edit workflow" };

/** The visual editor of one of the user's workflows (another user's id is a 404). */
export default async function EditWorkflowPage({ params }: Props) {
  const { id } = await params;
  const access = await requireAccess("read", `/workflows/${id}/edit`);
  const [workflow, agents, subflowTargets, providers] = await Promise.all([
    getWorkflow(access.workspaceId, id),
    listAgents(access.workspaceId),
    listSubflowTargets(access.workspaceId),
    listProviders(access.workspaceId),
  ]);
  if (!workflow) notFound();
  const savedAgents = agents.map((a) => ({
    id: a.id,
    name: a.name,
    spec: {
      description: a.description,
      instructions: a.instructions,
      tools: a.tools,
      ...(a.model ? { model: a.model } : {}),
    },
  }));
  const draft = workflow.document ?? blankWorkflowDocument(workflow.name);
  return (
    <EditorClient
      workflowId={id}
      draft={draft}
      savedAgents={savedAgents}
      subflowTargets={subflowTargets}
      providers={providers.map(({ id, name, defaultModel }) => ({ id, name, defaultModel }))}
      {...(allows(access.role, "edit") ? {} : { readOnlyRole: access.role })}
      actions={{
        saveDraft: saveDraftAction,
        saveVersion: saveVersionAction,
        listVersions: listVersionsAction,
        getVersion: getVersionAction,
        restoreVersion: restoreVersionAction,
      }}
    />
  );
}
