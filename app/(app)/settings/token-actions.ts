"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { CreateTokenResult, FormResult } from "@/components/settings/types";
import { requireUser } from "@/lib/auth/session";
import { apiTokenNameSchema, createApiToken, revokeApiToken } from "@/lib/db/api-tokens";
import { AppError } from "@/lib/errors";

/** Creates an API token; its secret is answered once, here, and never stored (only its hash is). */
export async function createApiTokenAction(_prev: CreateTokenResult, form: FormData): Promise<CreateTokenResult> {
  const user = await requireUser();
  const name = apiTokenNameSchema.safeParse(form.get("name") ?? "");
  if (!name.success) return { status: "error", fieldErrors: { name: name.error.issues[0]?.message } };
  try {
    const created = await createApiToken(user.id, name.data);
    revalidatePath("/settings");
    return { status: "ok", name: created.name, token: created.token };
  } catch (err) {
    if (err instanceof AppError && err.code === "conflict") return { status: "error", message: err.message };
    throw err;
  }
}

/** Revokes one of the user's API tokens: scripts using it get 401 from the next request on. */
export async function revokeApiTokenAction(id: string): Promise<FormResult> {
  const user = await requireUser();
  const revoked = await revokeApiToken(user.id, z.string().min(1).max(100).parse(id));
  revalidatePath("/settings");
  return revoked
    ? { status: "ok", message: "Token revoked." }
    : { status: "error", message: "Token not found or already revoked." };
}
