"use client";
import Link from "next/link";
import { useCallback, useState } from "react";
import { toastOutcome } from "@/components/ui/action-result";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ListCard, RowControls, useRowActions } from "./list-card";
import type { Field } from "@/lib/workflow/schema";
import { timeAgo } from "./format";
import { WebhookEditForm, WebhookForm } from "./webhook-form";
import { WebhookSecret } from "./webhook-secret";
import { describeInputMode, type WebhookActions, type WebhookRow } from "./webhook-types";

interface Props {
  workflowId: string;
  webhooks: WebhookRow[];
  /** Whether the workflow has a saved version (webhooks run the newest one). */
  hasSavedVersion: boolean;
  /** The draft's input fields (the form offers them; the example call uses them). */
  fields: Field[];
  actions: WebhookActions;
}

type Shown =
  | { kind: "add" }
  | { kind: "edit"; hook: WebhookRow }
  | { kind: "rotate"; hook: WebhookRow }
  | { kind: "secret"; name: string; secret: string; mode: WebhookRow["inputMode"] }
  | null;

/** The workflow's webhooks: secret URLs that start runs; last call, pause/resume, new URL, delete, and "Add webhook". */
export function WebhooksCard({ workflowId, webhooks, hasSavedVersion, fields, actions }: Props) {
  const [shown, setShown] = useState<Shown>(null);
  const { pending, act, startTransition } = useRowActions();
  const close = useCallback(() => setShown(null), []);
  const rotate = (hook: WebhookRow) =>
    startTransition(async () => {
      const r = await actions.rotate(workflowId, hook.id);
      if (r.status === "ok") setShown({ kind: "secret", name: r.name, secret: r.secret, mode: hook.inputMode });
      else toastOutcome(r.status === "error" ? { status: "error", message: r.message } : r);
    });
  return (
    <>
      <ListCard
        title="Webhooks"
        description="A secret URL another service can POST to: each call starts a run of the newest saved version. No token needed, so treat the URL as a password."
        addLabel="Add webhook"
        onAdd={() => setShown({ kind: "add" })}
        note={
          !hasSavedVersion &&
          webhooks.length > 0 && (
            <p role="note" className="rounded-md border border-warning/30 bg-warning/15 px-3 py-2 text-sm">
              No saved version yet: save one in the editor, or calls are refused (409).
            </p>
          )
        }
        empty="No webhooks."
      >
        {webhooks.map((w) => (
          <li
            key={w.id}
            data-testid="webhook-row"
            className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm"
          >
            <div className="grid gap-1">
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{w.name}</span>
                <code className="font-mono text-xs text-muted">/api/hooks/whk_••••{w.lastFour}</code>
                {!w.enabled && <Badge tone="warning">Paused</Badge>}
              </span>
              <span className="text-xs text-muted">{describeInputMode(w)}</span>
              <span className="text-xs" data-testid="webhook-last">
                {w.lastUsedAt ? (
                  <>
                    Last called {timeAgo(w.lastUsedAt)}:{" "}
                    {w.lastError ? (
                      <span className="text-danger">{w.lastError}</span>
                    ) : w.lastRunId ? (
                      <Link href={`/runs/${w.lastRunId}`} className="underline">
                        the run
                      </Link>
                    ) : null}
                  </>
                ) : (
                  <span className="text-muted">Never called</span>
                )}
              </span>
              {w.recent.length > 0 && (
                <details className="text-xs" data-testid="webhook-calls">
                  <summary className="cursor-pointer text-muted">Recent calls ({w.recent.length})</summary>
                  <ul className="mt-1 grid gap-1">
                    {w.recent.map((c, i) => (
                      <li key={i} className="flex flex-wrap items-center gap-2" data-testid="webhook-call">
                        <Badge tone={c.status < 300 ? "success" : "danger"}>{c.status}</Badge>
                        <span className="text-muted">{timeAgo(c.at)}</span>
                        {c.runId ? (
                          <Link href={`/runs/${c.runId}`} className="underline">
                            the run
                          </Link>
                        ) : (
                          <span className="text-danger">{c.error}</span>
                        )}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </div>
            <RowControls
              pending={pending}
              enabled={w.enabled}
              onPause={() => act(() => actions.pause(workflowId, w.id, w.enabled))}
              deleteLabel={`Delete webhook ${w.name}`}
              onDelete={() => act(() => actions.remove(workflowId, w.id))}
            >
              <Button
                size="sm"
                variant="outline"
                disabled={pending}
                onClick={() => setShown({ kind: "edit", hook: w })}
              >
                Edit
              </Button>
              <Button
                size="sm"
                variant="outline"
                disabled={pending}
                onClick={() => setShown({ kind: "rotate", hook: w })}
              >
                New URL
              </Button>
            </RowControls>
          </li>
        ))}
      </ListCard>
      {/* one dialog whose content follows the step: two dialogs would close each other's (the closing one's close event) */}
      <Dialog
        open={shown !== null}
        onOpenChange={(o) => !o && close()}
        title={dialogTitle(shown)}
        description={dialogDescription(shown)}
      >
        {shown?.kind === "add" && (
          <WebhookForm workflowId={workflowId} fields={fields} action={actions.create} onDone={close} />
        )}
        {shown?.kind === "edit" && (
          <WebhookEditForm
            workflowId={workflowId}
            fields={fields}
            webhook={shown.hook}
            action={actions.update}
            onDone={close}
          />
        )}
        {shown?.kind === "rotate" && (
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={close}>
              Cancel
            </Button>
            <Button disabled={pending} onClick={() => rotate(shown.hook)}>
              Replace the URL
            </Button>
          </div>
        )}
        {shown?.kind === "secret" && (
          <WebhookSecret name={shown.name} secret={shown.secret} fields={fields} mode={shown.mode} onDone={close} />
        )}
      </Dialog>
    </>
  );
}

function dialogTitle(shown: Shown): string {
  if (shown?.kind === "rotate") return `New URL for “${shown.hook.name}”?`;
  if (shown?.kind === "secret") return "New webhook URL";
  if (shown?.kind === "edit") return `Edit “${shown.hook.name}”`;
  return "Add webhook";
}

function dialogDescription(shown: Shown): string | undefined {
  if (shown?.kind === "rotate") return "The current URL stops working at once; senders need the new one.";
  if (shown?.kind === "add") return "Calls run the workflow's newest saved version.";
  if (shown?.kind === "edit") return "The URL stays the same.";
  return undefined;
}
