import "server-only";
import { db } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";

/** Schedules one user may keep (all workflows together). */
export const MAX_SCHEDULES_PER_USER = 50;

/** A schedule as its owner sees it. */
export interface ScheduleView {
  id: string;
  workflowId: string;
  cron: string;
  timezone: string;
  inputs: Record<string, unknown>;
  enabled: boolean;
  createdAt: Date;
  lastTickAt: Date | null;
  lastRunId: string | null;
  lastError: string | null;
}

/** What the fire job reads (system side: the worker, not a request). */
export interface ScheduleToFire {
  id: string;
  workspaceId: string;
  workflowId: string;
  inputs: Record<string, unknown>;
  enabled: boolean;
  cron: string;
  timezone: string;
  /** The last tick claimed: a tick at or before it was fired already. */
  lastTickAt: Date | null;
  /** The workflow's newest saved version number, null before the first save. */
  latestVersion: number | null;
}

const view = {
  id: true,
  workflowId: true,
  cron: true,
  timezone: true,
  inputs: true,
  enabled: true,
  createdAt: true,
  lastTickAt: true,
  lastRunId: true,
  lastError: true,
} as const;
const asView = (row: Omit<ScheduleView, "inputs"> & { inputs: Prisma.JsonValue }): ScheduleView => ({
  ...row,
  inputs: (row.inputs ?? {}) as Record<string, unknown>,
});

/** Adds a schedule to the owner's workflow (not_found for another user's; conflict past the limit). */
export async function createScheduleRow(
  workspaceId: string,
  workflowId: string,
  data: { cron: string; timezone: string; inputs: Record<string, unknown> },
): Promise<ScheduleView> {
  const [workflow, count] = await Promise.all([
    db().workflow.findFirst({ where: { id: workflowId, workspaceId }, select: { id: true } }),
    db().schedule.count({ where: { workspaceId } }),
  ]);
  if (!workflow) throw notFound("Workflow not found");
  if (count >= MAX_SCHEDULES_PER_USER)
    throw new AppError("conflict", `You already have ${MAX_SCHEDULES_PER_USER} schedules: delete one first.`);
  const row = await db().schedule.create({
    data: { workspaceId, workflowId, ...data, inputs: data.inputs as Prisma.InputJsonValue },
    select: view,
  });
  return asView(row);
}

/** The owner's schedules of one workflow, oldest first. */
export async function listSchedules(workspaceId: string, workflowId: string): Promise<ScheduleView[]> {
  const rows = await db().schedule.findMany({
    where: { workspaceId, workflowId },
    orderBy: { createdAt: "asc" },
    select: view,
  });
  return rows.map(asView);
}

/** Changes one of the owner's schedules of that workflow: timing and inputs (a changed timing may fire its next tick anew); null when not theirs. */
export async function updateScheduleRow(
  workspaceId: string,
  workflowId: string,
  id: string,
  data: { cron: string; timezone: string; inputs: Record<string, unknown> },
): Promise<ScheduleView | null> {
  const { count } = await db().schedule.updateMany({
    where: { id, workspaceId, workflowId },
    data: { ...data, inputs: data.inputs as Prisma.InputJsonValue },
  });
  if (!count) return null;
  return asView(await db().schedule.findUniqueOrThrow({ where: { id }, select: view }));
}

/** Pauses or resumes one of the owner's schedules; null when not theirs. */
export async function setScheduleEnabled(
  workspaceId: string,
  id: string,
  enabled: boolean,
): Promise<ScheduleView | null> {
  const { count } = await db().schedule.updateMany({ where: { id, workspaceId }, data: { enabled } });
  if (!count) return null;
  return asView(await db().schedule.findUniqueOrThrow({ where: { id }, select: view }));
}

/** Deletes one of the owner's schedules; false when not theirs. */
export async function deleteScheduleRow(workspaceId: string, id: string): Promise<boolean> {
  const { count } = await db().schedule.deleteMany({ where: { id, workspaceId } });
  return count > 0;
}

/** System side: the schedule a fire job names with its workflow's newest version number (one query), or null when it is gone. */
export async function scheduleToFire(id: string): Promise<ScheduleToFire | null> {
  const row = await db().schedule.findUnique({
    where: { id },
    select: {
      id: true,
      workspaceId: true,
      workflowId: true,
      inputs: true,
      enabled: true,
      cron: true,
      timezone: true,
      lastTickAt: true,
      workflow: { select: { versions: { select: { version: true }, orderBy: { version: "desc" }, take: 1 } } },
    },
  });
  if (!row) return null;
  const { workflow, inputs, ...rest } = row;
  return {
    ...rest,
    inputs: (inputs ?? {}) as Record<string, unknown>,
    latestVersion: workflow.versions[0]?.version ?? null,
  };
}

/**
 * System side: claims a tick of an enabled schedule, so each planned time fires at most once even
 * when its job is delivered twice (a stalled job retried after a worker crash). False: already
 * fired (or paused, or gone).
 */
export async function claimScheduleTick(id: string, tick: Date): Promise<boolean> {
  const { count } = await db().schedule.updateMany({
    where: { id, enabled: true, OR: [{ lastTickAt: null }, { lastTickAt: { lt: tick } }] },
    data: { lastTickAt: tick },
  });
  return count === 1;
}

/** System side: what the last tick did: the run it started, or why it started none. */
export async function recordScheduleFire(id: string, outcome: { runId: string } | { error: string }): Promise<void> {
  const data =
    "runId" in outcome ? { lastRunId: outcome.runId, lastError: null } : { lastError: outcome.error.slice(0, 500) };
  await db().schedule.updateMany({ where: { id }, data });
}

/** System side: every enabled schedule's timing (the reconciler rebuilds Redis's timers from it). */
export async function enabledScheduleTimings(): Promise<{ id: string; cron: string; timezone: string }[]> {
  return db().schedule.findMany({ where: { enabled: true }, select: { id: true, cron: true, timezone: true } });
}
