import { revalidatePath } from "next/cache";
import * as z from "zod";
import type { FormResult } from "@/components/settings/types";
import { requireAccess } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";

/** A form's or row's error answer. */
export type Refusal = { status: "error"; message: string; fieldErrors?: Record<string, string> };

/** Ids the workflow page's actions take (a workflow's, a row's). */
export const idSchema = z.string().min(1).max(100);

/**
 * The answer of a workflow-page action that the service refused: the message under the field the
 * error names (`details.field`), else as the form's message. Unexpected errors are rethrown (Next's
 * error boundary shows them; their details stay in the server log).
 */
export function refusal(err: unknown): Refusal {
  if (!(err instanceof AppError) || err.code === "internal") throw err;
  const field = (err.details as { field?: string } | undefined)?.field;
  return field
    ? { status: "error", message: "", fieldErrors: { [field]: err.message } }
    : { status: "error", message: err.message };
}

/**
 * A row action of the workflow page (pause, delete, send again): `change` as the signed-in user,
 * then the page refreshed and `message` answered (or made from the change's result); a refusal
 * answers its message.
 */
export async function rowAction<T>(
  workflowId: string,
  change: (userId: string) => Promise<T>,
  message: string | ((result: T) => string),
): Promise<FormResult> {
  const access = await requireAccess("edit");
  const id = idSchema.parse(workflowId);
  try {
    const result = await change(access.workspaceId);
    revalidatePath(`/workflows/${id}`);
    return { status: "ok", message: typeof message === "string" ? message : message(result) };
  } catch (err) {
    return refusal(err);
  }
}
