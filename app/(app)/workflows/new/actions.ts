"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import * as z from "zod";
import { requireAccess } from "@/lib/auth/access";
import { blankWorkflowDocument, createWorkflow } from "@/lib/db/workflows";
import { templateDocument, workspaceModels } from "../templates";

/** The query parameter the editor's designer reads its first request from (components/designer). */
const DESCRIBE_PARAM = "describe";

const messageSchema = z.string().trim().min(1).max(4000);

/**
 * "Describe the system you want": creates a blank draft and opens the editor, whose designer designs
 * the request at once; the proposal then waits on the canvas for the user to accept it.
 */
export async function describeWorkflowAction(form: FormData): Promise<void> {
  const access = await requireAccess("edit", "/workflows/new");
  // an example button sends its own request (`example`); otherwise the box's text
  const message = messageSchema.safeParse(form.get("example") ?? form.get("message"));
  if (!message.success) redirect("/workflows/new?error=empty");
  const wf = await createWorkflow(access.workspaceId, blankWorkflowDocument());
  revalidatePath("/workflows");
  redirect(`/workflows/${wf.id}/edit?${DESCRIBE_PARAM}=${encodeURIComponent(message.data)}`);
}

/** A gallery choice: a pattern template opens in the editor; "blank" opens the new workflow's page. */
export async function createFromGalleryAction(form: FormData): Promise<void> {
  const access = await requireAccess("edit", "/workflows/new");
  const templateId = z
    .string()
    .max(100)
    .catch("blank")
    .parse(form.get("template") ?? "blank");
  const document = templateDocument(templateId, await workspaceModels(access.workspaceId)) ?? blankWorkflowDocument();
  const wf = await createWorkflow(access.workspaceId, document);
  revalidatePath("/workflows");
  redirect(templateId === "blank" ? `/workflows/${wf.id}` : `/workflows/${wf.id}/edit`);
}
