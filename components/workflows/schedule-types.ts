import type { FormResult } from "@/components/settings/types";

/** A schedule as the workflow page shows it (lib/schedules' ScheduleDetail, minus what the page does not need). */
export interface ScheduleRow {
  id: string;
  cron: string;
  timezone: string;
  inputs: Record<string, unknown>;
  enabled: boolean;
  /** Next fire times (empty while paused). */
  next: Date[];
  lastTickAt: Date | null;
  lastRunId: string | null;
  lastError: string | null;
}

export interface ScheduleActions {
  /** Adds a schedule, or changes the one named by the form's `id`. */
  save: (prev: FormResult, form: FormData) => Promise<FormResult>;
  pause: (workflowId: string, id: string, paused: boolean) => Promise<FormResult>;
  remove: (workflowId: string, id: string) => Promise<FormResult>;
}

/** Patterns offered in the add form (five cron fields; "custom" leaves the field to the user). */
export const SCHEDULE_PRESETS = [
  { label: "Every hour", cron: "0 * * * *" },
  { label: "Every day at 09:00", cron: "0 9 * * *" },
  { label: "Weekdays at 09:00", cron: "0 9 * * 1-5" },
  { label: "Mondays at 09:00", cron: "0 9 * * 1" },
  { label: "First of the month at 09:00", cron: "0 9 1 * *" },
] as const;

/** A fire time in the schedule's own zone: "Thu, Dec 3, 09:00 (Europe/Berlin)". */
export function formatFireTime(at: Date, timezone: string): string {
  const text = at.toLocaleString("en", {
    timeZone: timezone,
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  return `${text} (${timezone})`;
}
