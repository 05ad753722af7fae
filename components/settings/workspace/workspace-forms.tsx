"use client";
import { useActionState, useTransition } from "react";
import { toastOutcome } from "@/components/ui/action-result";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { FormResult } from "../types";

type FormAction = (prev: FormResult, form: FormData) => Promise<FormResult>;

/** A one-field name form (rename this workspace, or make a new one). */
export function NameForm({
  label,
  submit,
  action,
  defaultValue = "",
  testId,
}: {
  label: string;
  submit: string;
  action: FormAction;
  defaultValue?: string;
  testId: string;
}) {
  const [state, dispatch, pending] = useActionState(action, { status: "idle" });
  return (
    <form action={dispatch} className="flex flex-wrap items-end gap-3" data-testid={testId}>
      <label className="grid gap-1 text-sm">
        {label}
        <input
          name="name"
          required
          maxLength={80}
          defaultValue={defaultValue}
          className="w-64 rounded-md border border-border bg-background px-2 py-1"
        />
      </label>
      <Button type="submit" variant="outline" loading={pending}>
        {submit}
      </Button>
      {state.status === "error" && (
        <span role="alert" className="text-sm text-danger">
          {state.message ?? state.fieldErrors?.name}
        </span>
      )}
      {state.status === "ok" && <span className="text-sm text-muted">{state.message}</span>}
    </form>
  );
}

/** Leaving a shared workspace, or (owner) deleting it with everything in it. */
export function DangerZone({
  canDelete,
  canLeave,
  remove,
  leave,
}: {
  canDelete: boolean;
  canLeave: boolean;
  remove: () => Promise<FormResult>;
  leave: () => Promise<FormResult>;
}) {
  const [pending, startTransition] = useTransition();
  if (!canDelete && !canLeave) return null;
  return (
    <Card className="flex flex-wrap gap-3 p-4">
      {canLeave && (
        <Button
          variant="outline"
          disabled={pending}
          onClick={() => startTransition(async () => toastOutcome(await leave()))}
        >
          Leave this workspace
        </Button>
      )}
      {canDelete && (
        <Button
          variant="outline"
          className="text-danger"
          disabled={pending}
          data-testid="workspace-delete"
          onClick={() => {
            if (window.confirm("Delete this workspace with all its workflows, runs and settings?"))
              startTransition(async () => toastOutcome(await remove()));
          }}
        >
          Delete this workspace
        </Button>
      )}
    </Card>
  );
}
