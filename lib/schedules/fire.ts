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

export const NO_SAVED_VERSION = "The workflow has no saved version: schedules run the newest saved version, so save one in the editor.";

/**
 * Fires one tick of a schedule (the worker's schedules queue): claims the tick in PostgreSQL, so a
 * job delivered twice starts one run (at most once per tick; a crash between the claim and the
 * start loses that tick, never doubles it), then starts a run of the workflow's newest saved version
 * with the schedule's inputs through startRun (same validation and per-user rate limit as the API).
 * A refused start is recorded on the schedule, shown to its owner. A deleted or paused schedule's
 * leftover timer is removed.
 */
export async function fireSchedule(scheduleId: string, tick: Date): Promise<FireOutcome> {
  const s = await scheduleToFire(scheduleId);
  if (!s || !s.enabled) {
    await removeScheduleTimer(scheduleId);
    return { kind: s ? "paused" : "gone" };
  }
  if (!(await claimScheduleTick(scheduleId, tick))) return { kind: "duplicate" };
  const version = s.latestVersion;
  if (version === null) {
    await recordScheduleFire(scheduleId, { error: NO_SAVED_VERSION });
    return { kind: "refused", error: NO_SAVED_VERSION };
  }
  try {
    const { run } = await startRun(s.ownerId, s.workflowId, { inputs: s.inputs, version }, { trigger: "schedule", label: `${s.cron} (${s.timezone})` });
    await recordScheduleFire(scheduleId, { runId: run.id });
    return { kind: "started", runId: run.id };
  } catch (err) {
    if (!(err instanceof AppError) || err.code === "internal") throw err;
    await recordScheduleFire(scheduleId, { error: err.message });
    return { kind: "refused", error: err.message };
  }
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
