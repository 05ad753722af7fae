import "server-only";
import * as z from "zod";
import {
  createScheduleRow,
  deleteScheduleRow,
  listSchedules,
  setScheduleEnabled,
  updateScheduleRow,
  type ScheduleView,
} from "@/lib/db/schedules";
import { getWorkflow, latestVersionInputs } from "@/lib/db/workflows";
import { AppError, notFound } from "@/lib/errors";
import { createLogger } from "@/lib/logger";
import { removeScheduleTimer, upsertScheduleTimer } from "@/lib/queue";
import { inputsSchema } from "@/lib/workflow/inputs";
import { checkCron } from "./cron";

const log = createLogger({ component: "schedules" });

export const scheduleInputSchema = z.object({
  cron: z.string().max(120),
  timezone: z.string().max(64),
  inputs: z.record(z.string(), z.unknown()).default({}),
});
export type ScheduleInput = z.input<typeof scheduleInputSchema>;

/** A schedule with its next fire times (empty while paused). */
export interface ScheduleDetail extends ScheduleView {
  next: Date[];
}

/** Whether the schedule's timer in Redis was set too; false: Redis is down and the worker's reconciler sets it later. */
export interface ScheduleChange {
  schedule: ScheduleDetail;
  timerSet: boolean;
}

const detail = (s: ScheduleView, now = new Date()): ScheduleDetail => {
  const check = s.enabled ? checkCron(s.cron, s.timezone, now) : null;
  return { ...s, next: check?.ok ? check.next : [] };
};

/** Sets the timer of an enabled schedule, else removes it; a Redis failure is logged and left to the reconciler (PostgreSQL holds the schedule). */
async function syncTimer(id: string, timing: { cron: string; timezone: string } | null): Promise<boolean> {
  try {
    if (timing) await upsertScheduleTimer({ id, ...timing });
    else await removeScheduleTimer(id);
    return true;
  } catch (err) {
    log.warn("schedule timer not synced; the reconciler will", {
      scheduleId: id,
      err: err instanceof Error ? err.message : String(err),
    });
    return false;
  }
}
const timingOf = (s: ScheduleView) => (s.enabled ? { cron: s.cron, timezone: s.timezone } : null);

/**
 * A schedule's pattern, zone and inputs, checked: five cron fields or an alias, a known zone, and
 * inputs that fit the input fields of the workflow's newest saved version (what its ticks run), or
 * of the draft before the first save. bad_request with the field at fault; not_found for a workflow
 * that is not the owner's.
 */
async function checkedSchedule(
  workspaceId: string,
  workflowId: string,
  input: ScheduleInput,
): Promise<{ cron: string; timezone: string; inputs: Record<string, unknown> }> {
  const parsed = scheduleInputSchema.safeParse(input);
  if (!parsed.success) throw new AppError("bad_request", "Invalid schedule.", z.treeifyError(parsed.error));
  const { cron, timezone, inputs } = parsed.data;
  const check = checkCron(cron, timezone);
  if (!check.ok) throw new AppError("bad_request", check.message, { field: check.field });
  const [workflow, saved] = await Promise.all([
    getWorkflow(workspaceId, workflowId),
    latestVersionInputs(workspaceId, workflowId),
  ]);
  if (!workflow) throw notFound("Workflow not found");
  const fields = saved?.inputs ?? workflow.document?.inputs;
  if (fields) {
    const fits = inputsSchema(fields).safeParse(inputs);
    const whose = saved ? `the newest saved version (v${saved.version})` : "the workflow";
    if (!fits.success)
      throw new AppError("bad_request", `The inputs do not match the input fields of ${whose}.`, {
        field: "inputs",
        ...z.treeifyError(fits.error),
      });
  }
  return { cron: check.pattern, timezone, inputs };
}

/** Adds a schedule that runs the owner's workflow's newest saved version with `inputs` (checked by checkedSchedule; nothing saved on a refusal). */
export async function createSchedule(
  workspaceId: string,
  workflowId: string,
  input: ScheduleInput,
): Promise<ScheduleChange> {
  const row = await createScheduleRow(workspaceId, workflowId, await checkedSchedule(workspaceId, workflowId, input));
  return { schedule: detail(row), timerSet: await syncTimer(row.id, timingOf(row)) };
}

/** Changes one of the owner's schedules (same checks as createSchedule); its timer follows. */
export async function updateSchedule(
  workspaceId: string,
  workflowId: string,
  id: string,
  input: ScheduleInput,
): Promise<ScheduleChange> {
  const row = await updateScheduleRow(
    workspaceId,
    workflowId,
    id,
    await checkedSchedule(workspaceId, workflowId, input),
  );
  if (!row) throw notFound("Schedule not found");
  return { schedule: detail(row), timerSet: await syncTimer(row.id, timingOf(row)) };
}

/** The owner's schedules of a workflow with their next fire times. */
export async function schedulesOf(
  workspaceId: string,
  workflowId: string,
  now = new Date(),
): Promise<ScheduleDetail[]> {
  return (await listSchedules(workspaceId, workflowId)).map((s) => detail(s, now));
}

/** Pauses (timer removed) or resumes (timer set again) one of the owner's schedules. */
export async function pauseSchedule(workspaceId: string, id: string, paused: boolean): Promise<ScheduleChange> {
  const row = await setScheduleEnabled(workspaceId, id, !paused);
  if (!row) throw notFound("Schedule not found");
  return { schedule: detail(row), timerSet: await syncTimer(row.id, timingOf(row)) };
}

/** Deletes one of the owner's schedules and its timer. */
export async function deleteSchedule(workspaceId: string, id: string): Promise<{ timerRemoved: boolean }> {
  if (!(await deleteScheduleRow(workspaceId, id))) throw notFound("Schedule not found");
  return { timerRemoved: await syncTimer(id, null) };
}
