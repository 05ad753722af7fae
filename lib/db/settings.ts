import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { type Prisma } from "@/lib/generated/prisma/client";

/** USD per one million tokens, per model name. */
export const priceTableSchema = z.record(
  z.string().min(1).max(200),
  z.object({ promptPer1M: z.number().min(0), completionPer1M: z.number().min(0) }),
);
export type PriceTable = z.infer<typeof priceTableSchema>;

/** A user's preferences; defaults when never saved: the scripted demo model designs, no prices. */
export interface SettingsView {
  /** null = the built-in scripted demo model (or OPENAI_* from env, decided by lib/llm). */
  designerProviderId: string | null;
  designerModel: string | null;
  prices: PriceTable;
}

export const settingsPatchSchema = z.object({
  designerProviderId: z.string().min(1).nullable().optional(),
  designerModel: z.string().trim().max(200).nullable().optional(),
  prices: priceTableSchema.optional(),
});
export type SettingsPatch = z.input<typeof settingsPatchSchema>;

/** The owner's settings (defaults when none are stored). A stored price table that no longer parses reads as {}. */
export async function getSettings(workspaceId: string): Promise<SettingsView> {
  const row = await db().userSettings.findUnique({ where: { userId: workspaceId } });
  const prices = priceTableSchema.safeParse(row?.prices ?? {});
  return {
    designerProviderId: row?.designerProviderId ?? null,
    designerModel: row?.designerModel || null,
    prices: prices.success ? prices.data : {},
  };
}

/** Saves a patch; a designer provider that is not the owner's is not_found. */
export async function updateSettings(workspaceId: string, patch: SettingsPatch): Promise<SettingsView> {
  const data = settingsPatchSchema.parse(patch);
  if (data.designerProviderId) {
    const owned = await db().modelProvider.count({ where: { id: data.designerProviderId, workspaceId } });
    if (!owned) throw notFound("Provider not found");
  }
  const fields = {
    ...(data.designerProviderId !== undefined && { designerProviderId: data.designerProviderId }),
    ...(data.designerModel !== undefined && { designerModel: data.designerModel || null }),
    ...(data.prices !== undefined && { prices: data.prices as Prisma.InputJsonValue }),
  };
  await db().userSettings.upsert({
    where: { userId: workspaceId },
    create: { userId: workspaceId, ...fields },
    update: fields,
  });
  return getSettings(workspaceId);
}
