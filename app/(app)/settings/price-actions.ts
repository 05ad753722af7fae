"use server";
import { revalidatePath } from "next/cache";
import * as z from "zod";
import { type FormResult } from "@/components/settings/types";
import { requireAccess } from "@/lib/auth/access";
import { priceTableSchema, updateSettings } from "@/lib/db/settings";

const rowsSchema = z
  .array(
    z.object({
      model: z.string().trim().min(1).max(200),
      promptPer1M: z.number().min(0),
      completionPer1M: z.number().min(0),
    }),
  )
  .max(200);

/** Saves the per-model price table (USD per 1M prompt/completion tokens) used for estimated run costs. */
export async function savePricesAction(rows: unknown): Promise<FormResult> {
  const access = await requireAccess("read");
  const parsed = rowsSchema.safeParse(rows);
  if (!parsed.success) return { status: "error", message: "Each row needs a model name and non-negative prices." };
  const table = priceTableSchema.parse(
    Object.fromEntries(
      parsed.data.map((r) => [r.model, { promptPer1M: r.promptPer1M, completionPer1M: r.completionPer1M }]),
    ),
  );
  await updateSettings(access.userId, { prices: table });
  revalidatePath("/settings");
  return { status: "ok", message: "Prices saved." };
}
