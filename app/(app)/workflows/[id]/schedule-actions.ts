"use server";
import { revalidatePath } from "next/cache";
import * as z from "zod";
import type { FormResult } from "@/components/settings/types";
import { requireAccess } from "@/lib/auth/access";
import {
  createSchedule,
  deleteSchedule,
  pauseSchedule,
  updateSchedule,
  type ScheduleInput,
} from "@/lib/schedules/service";
import { idSchema, refusal, rowAction } from "./action-results";

const LATER = " Its timer is set as soon as Redis answers again.";

/** The schedule form's fields (cron, timezone, inputs as JSON text), or the refusal of its inputs field. */
function scheduleFields(form: FormData): { ok: true; input: ScheduleInput } | { ok: false; result: FormResult } {
  const text = String(form.get("inputs") ?? "").trim() || "{}";
  let inputs: unknown;
  try {
    inputs = JSON.parse(text);
  } catch {
    return { ok: false, result: { status: "error", fieldErrors: { inputs: "Not valid JSON." } } };
  }
  if (typeof inputs !== "object" || inputs === null || Array.isArray(inputs))
    return { ok: false, result: { status: "error", fieldErrors: { inputs: 'Give an object: {"field": value}.' } } };
  return {
    ok: true,
    input: {
      cron: String(form.get("cron") ?? ""),
      timezone: String(form.get("timezone") ?? ""),
      inputs: inputs as Record<string, unknown>,
    },
  };
}

/** Adds (no `id`) or changes (`id`) a schedule from the form (workflowId, cron, timezone, inputs as JSON text). */
export async function saveScheduleAction(_prev: FormResult, form: FormData): Promise<FormResult> {
  const access = await requireAccess("edit");
  const workflowId = idSchema.parse(form.get("workflowId"));
  const id = form.get("id") ? idSchema.parse(form.get("id")) : null;
  const fields = scheduleFields(form);
  if (!fields.ok) return fields.result;
  try {
    const { timerSet } = id
      ? await updateSchedule(access.workspaceId, workflowId, id, fields.input)
      : await createSchedule(access.workspaceId, workflowId, fields.input);
    revalidatePath(`/workflows/${workflowId}`);
    return { status: "ok", message: `${id ? "Schedule saved." : "Schedule added."}${timerSet ? "" : LATER}` };
  } catch (err) {
    return refusal(err);
  }
}

/** Pauses or resumes one of the user's schedules. */
export async function pauseScheduleAction(workflowId: string, id: string, paused: boolean): Promise<FormResult> {
  return rowAction(
    workflowId,
    (userId) => pauseSchedule(userId, idSchema.parse(id), z.boolean().parse(paused)),
    ({ timerSet }) => `${paused ? "Schedule paused." : "Schedule resumed."}${timerSet ? "" : LATER}`,
  );
}

/** Deletes one of the user's schedules. */
export async function deleteScheduleAction(workflowId: string, id: string): Promise<FormResult> {
  return rowAction(workflowId, (userId) => deleteSchedule(userId, idSchema.parse(id)), "Schedule deleted.");
}
