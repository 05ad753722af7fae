"use server";
import { revalidatePath } from "next/cache";
import * as z from "zod";
import type { CreateTokenResult, FormResult } from "@/components/settings/types";
import { requireAccess } from "@/lib/auth/access";
import { recordAudit } from "@/lib/db/audit";
import { apiTokenNameSchema, createApiToken, revokeApiToken } from "@/lib/db/api-tokens";
import { AppError } from "@/lib/errors";

/** Creates an API token; its secret is answered once, here, and never stored (only its hash is). */
export async function createApiTokenAction(_prev: CreateTokenResult, form: FormData): Promise<CreateTokenResult> {
  const access = await requireAccess("read");
  const name = apiTokenNameSchema.safeParse(form.get("name") ?? "");
  if (!name.success) return { status: "error", fieldErrors: { name: name.error.issues[0]?.message } };
  try {
    const created = await createApiToken(access.workspaceId, access.userId, name.data);
    await recordAudit(access, "token.created", { type: "api_token", id: created.id }, { name: created.name });
    revalidatePath("/settings");
    return { status: "ok", name: created.name, token: created.token };
  } catch (err) {
    if (err instanceof AppError && err.code === "conflict") return { status: "error", message: err.message };
    throw err;
  }
}

/** Revokes one of the user's API tokens: scripts using it get 401 from the next request on. */
export async function revokeApiTokenAction(id: string): Promise<FormResult> {
  const access = await requireAccess("read");
  const tokenId = z.string().min(1).max(100).parse(id);
  const revoked = await revokeApiToken(access.workspaceId, access.userId, tokenId);
  if (revoked) await recordAudit(access, "token.revoked", { type: "api_token", id: tokenId });
  revalidatePath("/settings");
  return revoked
    ? { status: "ok", message: "Token revoked." }
    : { status: "error", message: "Token not found or already revoked." };
}
