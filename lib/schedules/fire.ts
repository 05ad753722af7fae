import "server-only";
import { claimScheduleTick, enabledScheduleTimings, recordScheduleFire, scheduleToFire } from "@/lib/db/schedules";
import { AppError } from "@/lib/errors";
import { listScheduleTimers, removeScheduleTimer, upsertScheduleTimer } from "@/lib/queue";
import { startRun } from "@/lib/runs/service";

/** What one fire job did. */
export type FireOutcome =
  | { kind: "started"; runId: string }
  | { kind: "refused"; error: string }
  | { kind: "duplicate" }
  | { kind: "gone" }
  | { kind: "paused" };

export const NO_SAVED_VERSION =
  "The workflow has no saved version: schedules run the newest saved version, so save one in the editor.";

/**
 * Fires one tick of a schedule (the worker's schedules queue): starts a run of the workflow's newest
 * saved version with the schedule's inputs through startRun (same validation and per-user rate limit
 * as the API) under the idempotency key of this schedule and tick, then claims the tick in
 * PostgreSQL. A job delivered twice, or retried after a crash anywhere in between, therefore starts
 * exactly one run for the tick (the second start answers the first run); a tick at or before the
 * last one claimed starts nothing. A refused start is recorded on the schedule, shown to its owner.
 * A deleted or paused schedule's leftover timer is removed.
 */
export async function fireSchedule(scheduleId: string, tick: Date): Promise<FireOutcome> {
  const s = await scheduleToFire(scheduleId);
  if (!s || !s.enabled) {
    await removeScheduleTimer(scheduleId);
    return { kind: s ? "paused" : "gone" };
  }
  if (s.lastTickAt && s.lastTickAt.getTime() >= tick.getTime()) return { kind: "duplicate" };
  const refused = async (error: string): Promise<FireOutcome> => {
    if (!(await claimScheduleTick(scheduleId, tick))) return { kind: "duplicate" };
    await recordScheduleFire(scheduleId, { error });
    return { kind: "refused", error };
  };
  const version = s.latestVersion;
  if (version === null) return refused(NO_SAVED_VERSION);
  let started: Awaited<ReturnType<typeof startRun>>;
  try {
    const origin = {
      trigger: "schedule" as const,
      label: `${s.cron} (${s.timezone})`,
      idempotencyKey: `schedule:${scheduleId}:${tick.toISOString()}`,
    };
    started = await startRun(s.workspaceId, s.workflowId, { inputs: s.inputs, version }, origin);
  } catch (err) {
    if (!(err instanceof AppError) || err.code === "internal") throw err;
    return refused(err.message);
  }
  // a concurrent delivery of the same tick got the same run; whichever claims first records it
  if (!(await claimScheduleTick(scheduleId, tick))) return { kind: "duplicate" };
  await recordScheduleFire(scheduleId, { runId: started.run.id });
  return { kind: "started", runId: started.run.id };
}

/**
 * Makes Redis's timers match PostgreSQL's enabled schedules: sets missing or changed ones (after a
 * Redis loss, or a change saved while Redis was down) and removes the rest. Idempotent.
 */
export async function reconcileSchedules(): Promise<{ set: number; removed: number }> {
  const [wanted, present] = await Promise.all([enabledScheduleTimings(), listScheduleTimers()]);
  const have = new Map(present.map((t) => [t.id, t]));
  const keep = new Set(wanted.map((t) => t.id));
  let set = 0;
  let removed = 0;
  for (const t of wanted) {
    const current = have.get(t.id);
    if (current && current.cron === t.cron && current.timezone === t.timezone) continue;
    await upsertScheduleTimer(t);
    set++;
  }
  for (const t of present) {
    if (keep.has(t.id)) continue;
    await removeScheduleTimer(t.id);
    removed++;
  }
  return { set, removed };
}
