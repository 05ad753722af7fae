"use client";
import Link from "next/link";
import { useCallback, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ListCard, RowControls, useRowActions } from "./list-card";
import { timeAgo } from "./format";
import { ScheduleForm } from "./schedule-form";
import { formatFireTime, type ScheduleActions, type ScheduleRow } from "./schedule-types";

interface Props {
  workflowId: string;
  schedules: ScheduleRow[];
  /** Whether the workflow has a saved version (schedules run the newest one). */
  hasSavedVersion: boolean;
  exampleInputs: Record<string, unknown>;
  actions: ScheduleActions;
}

/** The workflow's schedules: next and last fire, pause/resume, delete, and "Add schedule". */
export function SchedulesCard({ workflowId, schedules, hasSavedVersion, exampleInputs, actions }: Props) {
  // null: closed; "new": adding; a row: editing it
  const [open, setOpen] = useState<ScheduleRow | "new" | null>(null);
  const { pending, act } = useRowActions();
  const close = useCallback(() => setOpen(null), []);
  return (
    <>
      <ListCard
        title="Schedules"
        description="Run the newest saved version on a timetable. Each run counts against your run limit like any other."
        addLabel="Add schedule"
        onAdd={() => setOpen("new")}
        note={
          !hasSavedVersion &&
          schedules.length > 0 && (
            <p role="note" className="rounded-md border border-warning/30 bg-warning/15 px-3 py-2 text-sm">
              No saved version yet: save one in the editor, or these schedules start nothing.
            </p>
          )
        }
        empty="No schedules."
      >
        {schedules.map((s) => (
          <li
            key={s.id}
            data-testid="schedule-row"
            className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm"
          >
            <div className="grid gap-1">
              <span className="flex items-center gap-2">
                <code className="font-mono">{s.cron}</code>
                <span className="text-muted">{s.timezone}</span>
                {!s.enabled && <Badge tone="warning">Paused</Badge>}
              </span>
              <span className="text-xs text-muted" data-testid="schedule-next">
                {s.next[0] ? `Next: ${formatFireTime(s.next[0], s.timezone)}` : "Paused: no next run"}
              </span>
              {s.lastTickAt && (
                <span className="text-xs" data-testid="schedule-last">
                  Last fired {timeAgo(s.lastTickAt)}:{" "}
                  {s.lastError ? (
                    <span className="text-danger">{s.lastError}</span>
                  ) : s.lastRunId ? (
                    <Link href={`/runs/${s.lastRunId}`} className="underline">
                      the run
                    </Link>
                  ) : (
                    <span className="text-muted">no run recorded</span>
                  )}
                </span>
              )}
            </div>
            <RowControls
              pending={pending}
              enabled={s.enabled}
              onPause={() => act(() => actions.pause(workflowId, s.id, s.enabled))}
              deleteLabel={`Delete schedule ${s.cron}`}
              onDelete={() => act(() => actions.remove(workflowId, s.id))}
            >
              <Button size="sm" variant="outline" disabled={pending} onClick={() => setOpen(s)}>
                Edit
              </Button>
            </RowControls>
          </li>
        ))}
      </ListCard>
      <Dialog
        open={open !== null}
        onOpenChange={(o) => !o && close()}
        title={open === "new" ? "Add schedule" : "Edit schedule"}
        description="Runs the workflow's newest saved version with these inputs."
      >
        {open !== null && (
          <ScheduleForm
            key={open === "new" ? "new" : open.id}
            workflowId={workflowId}
            exampleInputs={exampleInputs}
            editing={open === "new" ? undefined : open}
            action={actions.save}
            onDone={close}
          />
        )}
      </Dialog>
    </>
  );
}
