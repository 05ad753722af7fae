"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import * as z from "zod";
import { requireAccess } from "@/lib/auth/access";
import { recordAudit } from "@/lib/db/audit";
import { blankWorkflowDocument, createWorkflow, deleteWorkflow } from "@/lib/db/workflows";
import { templateDocument, workspaceModels } from "./templates";

/** Creates a workflow (blank, or from the template named in the form) and opens it. */
export async function createWorkflowAction(form: FormData): Promise<void> {
  const access = await requireAccess("edit");
  const templateId = z
    .string()
    .max(100)
    .catch("blank")
    .parse(form.get("template") ?? "blank");
  const document = templateDocument(templateId, await workspaceModels(access.workspaceId)) ?? blankWorkflowDocument();
  const wf = await createWorkflow(access.workspaceId, document);
  revalidatePath("/workflows");
  redirect(`/workflows/${wf.id}`);
}

/** Deletes one of the user's workflows (someone else's id does nothing) and returns to the list. */
export async function deleteWorkflowAction(form: FormData): Promise<void> {
  const access = await requireAccess("edit");
  const id = z.string().min(1).max(100).parse(form.get("id"));
  if (await deleteWorkflow(access.workspaceId, id))
    await recordAudit(access, "workflow.deleted", { type: "workflow", id });
  revalidatePath("/workflows");
  redirect("/workflows");
}
