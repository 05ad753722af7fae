"use client";
import { useActionState } from "react";
import { toast } from "sonner";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import type { CreateTokenAction, CreateTokenResult } from "./types";

/** "New token": a name, then the secret shown once with a copy button and a first request to try. */
export function ApiTokenForm({ action, onDone }: { action: CreateTokenAction; onDone: () => void }) {
  const [state, formAction, pending] = useActionState<CreateTokenResult, FormData>(action, { status: "idle" });
  if (state.status === "ok") return <CreatedToken name={state.name} token={state.token} onDone={onDone} />;
  const errors = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  return (
    <ActionForm action={formAction} pending={pending} className="grid gap-4" noValidate>
      {state.status === "error" && state.message && (
        <p role="alert" className="rounded-md border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger">
          {state.message}
        </p>
      )}
      <FormField label="Name" error={errors.name} hint="What will use it, so you know which one to revoke later.">
        <Input name="name" placeholder="Nightly report script" maxLength={80} required autoFocus />
      </FormField>
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <SubmitButton>Create token</SubmitButton>
      </div>
    </ActionForm>
  );
}

function CreatedToken({ name, token, onDone }: { name: string; token: string; onDone: () => void }) {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const copy = () =>
    void navigator.clipboard?.writeText(token).then(
      () => toast.success("Token copied."),
      () => toast.error("Could not copy: select the token and copy it."),
    );
  return (
    <div className="grid gap-4">
      <p role="status" className="rounded-md border border-warning/30 bg-warning/15 px-3 py-2 text-sm">
        Copy <strong>{name}</strong> now: it is shown only this once. Weft keeps only a hash of it.
      </p>
      <div className="flex gap-2">
        <Input
          readOnly
          value={token}
          aria-label="New API token"
          data-testid="new-api-token"
          className="font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button variant="secondary" onClick={copy}>
          Copy
        </Button>
      </div>
      <div className="grid gap-1 text-sm">
        <span className="text-muted">Try it: list your workflows and their inputs.</span>
        <pre className="overflow-x-auto rounded-md bg-surface-2 px-3 py-2 font-mono text-xs">{`curl -H "Authorization: Bearer ${token}" ${origin}/api/workflows`}</pre>
      </div>
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
