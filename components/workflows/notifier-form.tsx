"use client";
import { useActionState } from "react";
import { toast } from "sonner";
import type { FormResult } from "@/components/settings/types";
import { useDoneOnOk } from "@/components/ui/action-result";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input, Select } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { NOTIFY_ON_LABEL, type NotifierActions, type NotifierRow, type NotifierSecretResult } from "./notifier-types";

/** "Add notification URL": where and which endings; then the signing secret, shown once. */
export function NotifierForm({
  workflowId,
  action,
  onDone,
}: {
  workflowId: string;
  action: NotifierActions["create"];
  onDone: () => void;
}) {
  const [state, formAction, pending] = useActionState<NotifierSecretResult, FormData>(action, { status: "idle" });
  if (state.status === "ok") return <SigningSecret url={state.url} secret={state.secret} onDone={onDone} />;
  return (
    <ActionForm action={formAction} pending={pending} className="grid gap-4" noValidate>
      <input type="hidden" name="workflowId" value={workflowId} />
      <NotifierFields state={state} />
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <SubmitButton>Add URL</SubmitButton>
      </div>
    </ActionForm>
  );
}

/** "Edit": a notification URL's address and which endings it hears of; its signing secret stays. */
export function NotifierEditForm({
  workflowId,
  notifier,
  action,
  onDone,
}: {
  workflowId: string;
  notifier: NotifierRow;
  action: NotifierActions["update"];
  onDone: () => void;
}) {
  const [state, formAction, pending] = useActionState<FormResult, FormData>(action, { status: "idle" });
  useDoneOnOk(state, onDone);
  return (
    <ActionForm action={formAction} pending={pending} className="grid gap-4" noValidate>
      <input type="hidden" name="workflowId" value={workflowId} />
      <input type="hidden" name="id" value={notifier.id} />
      <NotifierFields state={state} initial={notifier} />
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <SubmitButton>Save URL</SubmitButton>
      </div>
    </ActionForm>
  );
}

function NotifierFields({
  state,
  initial,
}: {
  state: { status: string; message?: string; fieldErrors?: Record<string, string | undefined> };
  initial?: NotifierRow;
}) {
  const errors = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  return (
    <>
      {state.status === "error" && state.message && (
        <p role="alert" className="rounded-md border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger">
          {state.message}
        </p>
      )}
      <FormField
        label="URL"
        error={errors.url}
        hint="Receives a signed JSON POST when a run ends; a 2xx answer counts as received."
      >
        <Input
          name="url"
          type="url"
          placeholder="https://example.com/hooks/weft"
          maxLength={2000}
          defaultValue={initial?.url}
          required
          autoFocus
        />
      </FormField>
      <FormField label="Send" hint="Failed, aborted, over budget and cancelled runs count as not succeeding.">
        <Select name="on" defaultValue={initial?.on ?? "all"}>
          {(Object.keys(NOTIFY_ON_LABEL) as (keyof typeof NOTIFY_ON_LABEL)[]).map((k) => (
            <option key={k} value={k}>
              {NOTIFY_ON_LABEL[k]}
            </option>
          ))}
        </Select>
      </FormField>
    </>
  );
}

function SigningSecret({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  const copy = () =>
    void navigator.clipboard?.writeText(secret).then(
      () => toast.success("Copied."),
      () => toast.error("Could not copy: select the text instead."),
    );
  return (
    <div className="grid gap-4">
      <p role="status" className="rounded-md border border-warning/30 bg-warning/15 px-3 py-2 text-sm">
        Copy the signing secret for <strong className="break-all">{url}</strong> now: it is shown only this once.
      </p>
      <div className="flex gap-2">
        <Input
          readOnly
          value={secret}
          aria-label="Signing secret"
          data-testid="new-signing-secret"
          className="font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button variant="secondary" onClick={copy}>
          Copy
        </Button>
      </div>
      <p className="text-sm text-muted">
        Each POST carries{" "}
        <code className="font-mono text-xs">X-Weft-Signature: t=&lt;unix time&gt;,v1=&lt;hex&gt;</code>, where the hex
        is the HMAC-SHA256 of <code className="font-mono text-xs">&lt;t&gt;.&lt;raw body&gt;</code> keyed with this
        secret. Check it, and refuse a t older than five minutes.
      </p>
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
