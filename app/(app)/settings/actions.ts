"use server";
import { revalidatePath } from "next/cache";
import * as z from "zod";
import { type FormResult, type TestResult } from "@/components/settings/types";
import { requireAccess } from "@/lib/auth/access";
import { deleteProvider, getProviderSecret, providerInputSchema } from "@/lib/db/providers";
import { createProvider, updateProvider } from "@/lib/providers/settings";
import { updateSettings } from "@/lib/db/settings";
import { AppError } from "@/lib/errors";
import { testConnection } from "./test-connection";

const idSchema = z.string().min(1).max(100);

function fieldErrors(error: z.ZodError): FormResult {
  const f = z.flattenError(error).fieldErrors as Record<string, string[] | undefined>;
  return { status: "error", fieldErrors: Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v?.[0]])) };
}

/** A refusal under the field it names (`details.field`, or `field` for a conflict), else as the form's message. */
function appError(err: unknown, field?: string): FormResult {
  if (err instanceof AppError && err.code !== "internal") {
    const named =
      (err.details as { field?: string } | undefined)?.field ?? (err.code === "conflict" ? field : undefined);
    return named
      ? { status: "error", fieldErrors: { [named]: err.message } }
      : { status: "error", message: err.message };
  }
  throw err;
}

/** Adds a provider, or updates the one named by `id` (an empty key keeps the stored one). */
export async function saveProviderAction(_prev: FormResult, form: FormData): Promise<FormResult> {
  const access = await requireAccess("edit");
  const raw = Object.fromEntries(form) as Record<string, string>;
  const id = raw.id ? idSchema.parse(raw.id) : undefined;
  const parsed = providerInputSchema.safeParse({ ...raw, apiKey: raw.apiKey || undefined });
  if (!parsed.success) return fieldErrors(parsed.error);
  try {
    if (id) {
      const updated = await updateProvider(access.workspaceId, id, parsed.data);
      if (!updated) return { status: "error", message: "Provider not found." };
    } else {
      await createProvider(access.workspaceId, parsed.data);
    }
  } catch (err) {
    return appError(err, "name");
  }
  revalidatePath("/settings");
  return { status: "ok", message: id ? "Provider saved." : "Provider added." };
}

/** Deletes one of the user's providers. */
export async function deleteProviderAction(id: string): Promise<FormResult> {
  const access = await requireAccess("edit");
  const removed = await deleteProvider(access.workspaceId, idSchema.parse(id));
  revalidatePath("/settings");
  return removed ? { status: "ok", message: "Provider deleted." } : { status: "error", message: "Provider not found." };
}

/** Calls GET {baseURL}/models with the stored key; the key itself never leaves the server. */
export async function testProviderAction(id: string): Promise<TestResult> {
  const access = await requireAccess("edit");
  const provider = await getProviderSecret(access.workspaceId, idSchema.parse(id));
  if (!provider) return { ok: false, message: "Provider not found." };
  return testConnection(provider.baseUrl, provider.apiKey);
}

const designerSchema = z.object({
  designerProviderId: z
    .string()
    .max(100)
    .transform((s) => s || null),
  designerModel: z
    .string()
    .trim()
    .max(200)
    .transform((s) => s || null),
});

/** Saves which provider/model the designer uses ("" = the scripted demo model). */
export async function saveDesignerAction(_prev: FormResult, form: FormData): Promise<FormResult> {
  const access = await requireAccess("read");
  const parsed = designerSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return fieldErrors(parsed.error);
  try {
    await updateSettings(access.userId, parsed.data);
  } catch (err) {
    return appError(err);
  }
  revalidatePath("/settings");
  return { status: "ok", message: "Designer model saved." };
}
