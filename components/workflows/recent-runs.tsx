import Link from "next/link";
import { formatDuration } from "@/components/runs/cost";
import { StatusBadge } from "@/components/terms/status-badge";
import { describeTrigger } from "@/components/runs/trigger";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { RunRow } from "@/lib/run-views/dto";
import { timeAgo } from "./format";

/** How many of a workflow's runs its page lists. */
export const RECENT_RUNS = 5;

/** The workflow's latest runs (status, what started them, when, how long) and a link to all of them on /runs. */
export function RecentRuns({ workflowId, runs }: { workflowId: string; runs: RunRow[] }) {
  return (
    <Card className="mt-6">
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>Recent runs</CardTitle>
          <CardDescription>The latest runs of this workflow, whatever started them.</CardDescription>
        </div>
        {runs.length > 0 && (
          <Link href={`/runs?workflow=${workflowId}`} className="text-sm underline">
            All runs
          </Link>
        )}
      </CardHeader>
      <CardContent>
        {runs.length === 0 ? (
          <p className="text-sm text-muted">
            No runs yet: start one from the editor, a script, a schedule or a webhook.
          </p>
        ) : (
          <ul className="divide-y divide-border" data-testid="recent-runs">
            {runs.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm">
                <span className="flex items-center gap-2">
                  <Link href={`/runs/${r.id}`}>
                    <StatusBadge status={r.status} />
                  </Link>
                  <span className="text-muted">{describeTrigger(r.trigger, r.triggerLabel)}</span>
                </span>
                <span className="flex gap-4 text-xs text-muted tabular-nums">
                  <span>v{r.version}</span>
                  <span>{formatDuration(r.durationMs)}</span>
                  <span>{timeAgo(new Date(r.startedAt ?? r.createdAt))}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
