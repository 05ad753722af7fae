import type { RunTrigger } from "@/lib/workflow/runs";

/** Each trigger's name in lists and filters. */
export const TRIGGER_NAMES: Record<RunTrigger, string> = {
  manual: "Manual",
  api: "API",
  schedule: "Schedule",
  webhook: "Webhook",
  mcp: "MCP",
  rerun: "Re-run",
  subflow: "Subflow",
  retry: "Retry",
  fork: "Fork",
  experiment: "Experiment",
};

/**
 * What started a run, as one line: the trigger's name and, when recorded, which token, schedule,
 * webhook, tool, earlier run (re-run, retry, fork) or parent run (a run id shortened to its first 8 characters).
 */
export function describeTrigger(trigger: RunTrigger, label?: string | null): string {
  const name = TRIGGER_NAMES[trigger] ?? trigger;
  if (!label) return name;
  if (trigger === "rerun" || trigger === "subflow" || trigger === "retry" || trigger === "fork")
    return `${name} of ${label.slice(0, 8)}`;
  return `${name} · ${label}`;
}
