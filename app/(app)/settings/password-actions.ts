"use server";
import { redirect } from "next/navigation";
import * as z from "zod";
import { type FormResult } from "@/components/settings/types";
import { changePassword } from "@/lib/auth/session-version";
import { requireAccess } from "@/lib/auth/access";
import { passwordChangeSchema } from "@/lib/db/users";
import { AppError } from "@/lib/errors";

/** Changes the signed-in user's password; every session ends, so the answer is the sign-in page. */
export async function changePasswordAction(_prev: FormResult, form: FormData): Promise<FormResult> {
  const access = await requireAccess("read");
  const parsed = passwordChangeSchema.safeParse({ current: form.get("current") ?? "", next: form.get("next") ?? "" });
  if (!parsed.success) {
    const f = z.flattenError(parsed.error).fieldErrors;
    return { status: "error", fieldErrors: { current: f.current?.[0], next: f.next?.[0] } };
  }
  try {
    await changePassword(access.userId, parsed.data);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const field = (err.details as { field?: string } | undefined)?.field;
    return field
      ? { status: "error", fieldErrors: { [field]: err.message } }
      : { status: "error", message: err.message };
  }
  redirect("/sign-in?changed=password");
}
