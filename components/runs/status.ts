import type { BadgeTone } from "@/components/ui/badge";

/** Badge tone of a run or step status. */
export function statusTone(status: string): BadgeTone {
  switch (status) {
    case "succeeded": return "success";
    case "running": return "primary";
    case "failed": case "timed_out": case "aborted": return "danger";
    case "budget_exhausted": case "cancelled": case "waiting": return "warning";
    default: return "neutral";
  }
}
