"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { requireUser } from "@/lib/auth/session";
import { blankWorkflowDocument, createWorkflow, deleteWorkflow } from "@/lib/db/workflows";
import { templateDocument, userModels } from "./templates";

/** Creates a workflow (blank, or from the template named in the form) and opens it. */
export async function createWorkflowAction(form: FormData): Promise<void> {
  const user = await requireUser();
  const templateId = z
    .string()
    .max(100)
    .catch("blank")
    .parse(form.get("template") ?? "blank");
  const document = templateDocument(templateId, await userModels(user.id)) ?? blankWorkflowDocument();
  const wf = await createWorkflow(user.id, document);
  revalidatePath("/workflows");
  redirect(`/workflows/${wf.id}`);
}

/** Deletes one of the user's workflows (someone else's id does nothing) and returns to the list. */
export async function deleteWorkflowAction(form: FormData): Promise<void> {
  const user = await requireUser();
  const id = z.string().min(1).max(100).parse(form.get("id"));
  await deleteWorkflow(user.id, id);
  revalidatePath("/workflows");
  redirect("/workflows");
}
