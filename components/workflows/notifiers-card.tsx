"use client";
import Link from "next/link";
import { useCallback, useState, useTransition } from "react";
import type { FormResult } from "@/components/settings/types";
import { toastOutcome } from "@/components/ui/action-result";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { PlusIcon, TrashIcon } from "@/components/ui/icons";
import { NotifierEditForm, NotifierForm } from "./notifier-form";
import { describeDelivery, NOTIFY_ON_LABEL, type NotifierActions, type NotifierRow } from "./notifier-types";

/** The workflow's notification URLs: told of every run that ends (or only failures), signed; test, pause, delete. */
export function NotifiersCard({ workflowId, notifiers, actions }: { workflowId: string; notifiers: NotifierRow[]; actions: NotifierActions }) {
  // null: closed; "new": adding; a row: editing it
  const [open, setOpen] = useState<NotifierRow | "new" | null>(null);
  const [pending, startTransition] = useTransition();
  const close = useCallback(() => setOpen(null), []);
  const act = (fn: () => Promise<FormResult>) =>
    startTransition(async () => {
      toastOutcome(await fn());
    });
  return (
    <Card className="mt-6">
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>Run notifications</CardTitle>
          <CardDescription>URLs told when a run of this workflow ends: a signed JSON POST with its status and outputs, tried again for a while if the receiver is down.</CardDescription>
        </div>
        <Button size="sm" onClick={() => setOpen("new")}>
          <PlusIcon /> Add URL
        </Button>
      </CardHeader>
      <CardContent className="grid gap-3">
        {notifiers.length === 0 ? (
          <p className="text-sm text-muted">No notification URLs.</p>
        ) : (
          <ul className="divide-y divide-border">
            {notifiers.map((n) => (
              <li key={n.id} data-testid="notifier-row" className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                <div className="grid min-w-0 gap-1">
                  <span className="flex flex-wrap items-center gap-2">
                    <code className="break-all font-mono text-xs">{n.url}</code>
                    {!n.enabled && <Badge tone="warning">Paused</Badge>}
                  </span>
                  <span className="text-xs text-muted">{NOTIFY_ON_LABEL[n.on]} · secret ••••{n.secretLast4}</span>
                  <span className={n.lastDelivery?.status === "failed" ? "text-xs text-danger" : "text-xs"} data-testid="notifier-last">
                    {describeDelivery(n.lastDelivery)}
                    {n.lastDelivery && <> · <Link href={`/runs/${n.lastDelivery.runId}`} className="underline">the run</Link></>}
                  </span>
                  {n.recent.length > 0 && (
                    <details className="text-xs" data-testid="notifier-deliveries">
                      <summary className="cursor-pointer text-muted">Recent deliveries ({n.recent.length})</summary>
                      <ul className="mt-1 grid gap-1">
                        {n.recent.map((d) => (
                          <li key={d.id} className="flex flex-wrap items-center gap-2" data-testid="delivery" data-status={d.status}>
                            <span className={d.status === "failed" ? "text-danger" : ""}>{describeDelivery(d)}</span>
                            <Link href={`/runs/${d.runId}`} className="underline">run</Link>
                            {d.status !== "pending" && (
                              <Button size="sm" variant="ghost" disabled={pending} onClick={() => act(() => actions.redeliver(workflowId, d.id))}>Send again</Button>
                            )}
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                </div>
                <div className="flex gap-1">
                  <Button size="sm" variant="outline" disabled={pending} onClick={() => setOpen(n)}>Edit</Button>
                  <Button size="sm" variant="outline" disabled={pending} onClick={() => act(() => actions.ping(workflowId, n.id))}>Send test</Button>
                  <Button size="sm" variant="outline" disabled={pending} onClick={() => act(() => actions.pause(workflowId, n.id, n.enabled))}>
                    {n.enabled ? "Pause" : "Resume"}
                  </Button>
                  <Button size="icon" variant="ghost" className="text-danger" aria-label={`Delete notification URL ${n.url}`} disabled={pending} onClick={() => act(() => actions.remove(workflowId, n.id))}>
                    <TrashIcon />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <Dialog
        open={open !== null}
        onOpenChange={(o) => !o && close()}
        title={open === "new" ? "Add notification URL" : "Edit notification URL"}
        description={open === "new" ? "Runs that end from now on are sent; earlier ones are not." : "The signing secret stays the same."}
      >
        {open === "new" && <NotifierForm workflowId={workflowId} action={actions.create} onDone={close} />}
        {open !== null && open !== "new" && <NotifierEditForm key={open.id} workflowId={workflowId} notifier={open} action={actions.update} onDone={close} />}
      </Dialog>
    </Card>
  );
}
