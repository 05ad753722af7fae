import { Badge } from "@/components/ui/badge";
import { BADGE_TONE, statusHint, statusLabel, statusTone } from "./status";

/** A run or step status as a badge: the shared word and colour (components/terms/status.ts). */
export function StatusBadge({ status, className, testId }: { status: string; className?: string; testId?: string }) {
  return (
    <Badge
      tone={BADGE_TONE[statusTone(status)]}
      className={className}
      title={statusHint(status) || undefined}
      data-testid={testId}
      data-status={status}
    >
      {statusLabel(status)}
    </Badge>
  );
}
