"use server";
import { revalidatePath } from "next/cache";
import * as z from "zod";
import type { FormResult } from "@/components/settings/types";
import { requireAccess } from "@/lib/auth/access";
import { recordAudit } from "@/lib/db/audit";
import { credentialInputSchema, deleteCredential, saveCredential } from "@/lib/db/credentials";
import { AppError } from "@/lib/errors";

/** Saves a credential to the user's vault (a name already there is rotated); its value is never answered back. */
export async function saveCredentialAction(_prev: FormResult, form: FormData): Promise<FormResult> {
  const access = await requireAccess("edit");
  const raw = Object.fromEntries(form);
  const parsed = credentialInputSchema.safeParse({
    name: raw.name ?? "",
    kind: raw.kind ?? "",
    value: raw.value ?? "",
    ...(typeof raw.headerName === "string" && raw.headerName.trim() ? { headerName: raw.headerName } : {}),
  });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const i of parsed.error.issues) fieldErrors[String(i.path[0] ?? "name")] ??= i.message;
    return { status: "error", message: "Check the highlighted fields.", fieldErrors };
  }
  try {
    const saved = await saveCredential(access.workspaceId, parsed.data);
    await recordAudit(access, "credential.saved", { type: "credential", id: saved.id }, { name: saved.name });
    revalidatePath("/settings");
    return { status: "ok", message: `Saved “${saved.name}” (…${saved.last4}).` };
  } catch (err) {
    if (err instanceof AppError && err.code !== "internal") return { status: "error", message: err.message };
    throw err;
  }
}

/** Deletes a credential: servers that name it fail to connect until it is saved again. */
export async function deleteCredentialAction(id: string): Promise<FormResult> {
  const access = await requireAccess("edit");
  const credentialId = z.string().min(1).max(100).parse(id);
  const ok = await deleteCredential(access.workspaceId, credentialId);
  if (ok) await recordAudit(access, "credential.deleted", { type: "credential", id: credentialId });
  revalidatePath("/settings");
  return ok ? { status: "ok", message: "Credential deleted." } : { status: "error", message: "Credential not found." };
}
