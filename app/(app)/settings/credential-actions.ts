"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { FormResult } from "@/components/settings/types";
import { requireUser } from "@/lib/auth/session";
import { credentialInputSchema, deleteCredential, saveCredential } from "@/lib/db/credentials";
import { AppError } from "@/lib/errors";

/** Saves a credential to the user's vault (a name already there is rotated); its value is never answered back. */
export async function saveCredentialAction(_prev: FormResult, form: FormData): Promise<FormResult> {
  const user = await requireUser();
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
    const saved = await saveCredential(user.id, parsed.data);
    revalidatePath("/settings");
    return { status: "ok", message: `Saved “${saved.name}” (…${saved.last4}).` };
  } catch (err) {
    if (err instanceof AppError && err.code !== "internal") return { status: "error", message: err.message };
    throw err;
  }
}

/** Deletes a credential: servers that name it fail to connect until it is saved again. */
export async function deleteCredentialAction(id: string): Promise<FormResult> {
  const user = await requireUser();
  const ok = await deleteCredential(user.id, z.string().min(1).max(100).parse(id));
  revalidatePath("/settings");
  return ok ? { status: "ok", message: "Credential deleted." } : { status: "error", message: "Credential not found." };
}
