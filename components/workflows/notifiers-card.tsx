"use client";
import Link from "next/link";
import { useCallback, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ListCard, RowControls, useRowActions } from "./list-card";
import { NotifierEditForm, NotifierForm } from "./notifier-form";
import {
  deliveryEventLabel,
  describeDelivery,
  NOTIFY_ON_LABEL,
  type NotifierActions,
  type NotifierRow,
} from "./notifier-types";

/** The workflow's notification URLs: told of every run that ends (or only failures), signed; test, pause, delete. */
export function NotifiersCard({
  workflowId,
  notifiers,
  actions,
}: {
  workflowId: string;
  notifiers: NotifierRow[];
  actions: NotifierActions;
}) {
  // null: closed; "new": adding; a row: editing it
  const [open, setOpen] = useState<NotifierRow | "new" | null>(null);
  const { pending, act } = useRowActions();
  const close = useCallback(() => setOpen(null), []);
  return (
    <>
      <ListCard
        title="Run notifications"
        description="URLs told when a run of this workflow ends: a signed JSON POST with its status and outputs, tried again for a while if the receiver is down."
        addLabel="Add URL"
        onAdd={() => setOpen("new")}
        empty="No notification URLs."
      >
        {notifiers.map((n) => (
          <li
            key={n.id}
            data-testid="notifier-row"
            className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm"
          >
            <div className="grid min-w-0 gap-1">
              <span className="flex flex-wrap items-center gap-2">
                <code className="break-all font-mono text-xs">{n.url}</code>
                {!n.enabled && <Badge tone="warning">Paused</Badge>}
              </span>
              <span className="text-xs text-muted">
                {NOTIFY_ON_LABEL[n.on]} · secret ••••{n.secretLast4}
              </span>
              <span
                className={n.lastDelivery?.status === "failed" ? "text-xs text-danger" : "text-xs"}
                data-testid="notifier-last"
              >
                {describeDelivery(n.lastDelivery)}
                {n.lastDelivery && (
                  <>
                    {" "}
                    ·{" "}
                    <Link href={`/runs/${n.lastDelivery.runId}`} className="underline">
                      the run
                    </Link>
                  </>
                )}
              </span>
              {n.recent.length > 0 && (
                <details className="text-xs" data-testid="notifier-deliveries">
                  <summary className="cursor-pointer text-muted">Recent deliveries ({n.recent.length})</summary>
                  <ul className="mt-1 grid gap-1">
                    {n.recent.map((d) => (
                      <li
                        key={d.id}
                        className="flex flex-wrap items-center gap-2"
                        data-testid="delivery"
                        data-status={d.status}
                      >
                        <span className="text-muted">{deliveryEventLabel(d.event)}:</span>
                        <span className={d.status === "failed" ? "text-danger" : ""}>{describeDelivery(d)}</span>
                        <Link href={`/runs/${d.runId}`} className="underline">
                          run
                        </Link>
                        {d.status !== "pending" && (
                          <Button
                            size="sm"
                            variant="ghost"
                            disabled={pending}
                            onClick={() => act(() => actions.redeliver(workflowId, d.id))}
                          >
                            Send again
                          </Button>
                        )}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </div>
            <RowControls
              pending={pending}
              enabled={n.enabled}
              onPause={() => act(() => actions.pause(workflowId, n.id, n.enabled))}
              deleteLabel={`Delete notification URL ${n.url}`}
              onDelete={() => act(() => actions.remove(workflowId, n.id))}
            >
              <Button size="sm" variant="outline" disabled={pending} onClick={() => setOpen(n)}>
                Edit
              </Button>
              <Button
                size="sm"
                variant="outline"
                disabled={pending}
                onClick={() => act(() => actions.ping(workflowId, n.id))}
              >
                Send test
              </Button>
            </RowControls>
          </li>
        ))}
      </ListCard>
      <Dialog
        open={open !== null}
        onOpenChange={(o) => !o && close()}
        title={open === "new" ? "Add notification URL" : "Edit notification URL"}
        description={
          open === "new"
            ? "Runs that end from now on are sent; earlier ones are not."
            : "The signing secret stays the same."
        }
      >
        {open === "new" && <NotifierForm workflowId={workflowId} action={actions.create} onDone={close} />}
        {open !== null && open !== "new" && (
          <NotifierEditForm
            key={open.id}
            workflowId={workflowId}
            notifier={open}
            action={actions.update}
            onDone={close}
          />
        )}
      </Dialog>
    </>
  );
}
