"use client";
import { useActionState, useState } from "react";
import type { FormResult } from "@/components/settings/types";
import { useDoneOnOk } from "@/components/ui/action-result";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input, Select } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import type { Field } from "@/lib/workflow/schema";
import { WebhookSecret } from "./webhook-secret";
import type { WebhookActions, WebhookRow, WebhookSecretResult } from "./webhook-types";

type Errors = Record<string, string | undefined>;

/** "Add webhook": a name and what the body becomes; then the secret URL, shown once. */
export function WebhookForm({
  workflowId,
  fields,
  action,
  onDone,
}: {
  workflowId: string;
  fields: Field[];
  action: WebhookActions["create"];
  onDone: () => void;
}) {
  const [state, formAction, pending] = useActionState<WebhookSecretResult, FormData>(action, { status: "idle" });
  // controlled only because it shows or hides the field choice; ActionForm keeps the rest after a refusal
  const [mode, setMode] = useState<WebhookRow["inputMode"]>("fields");
  if (state.status === "ok")
    return <WebhookSecret name={state.name} secret={state.secret} fields={fields} mode={mode} onDone={onDone} />;
  return (
    <ActionForm action={formAction} pending={pending} className="grid gap-4" noValidate>
      <input type="hidden" name="workflowId" value={workflowId} />
      <WebhookFields fields={fields} mode={mode} onMode={setMode} state={state} />
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <SubmitButton>Add webhook</SubmitButton>
      </div>
    </ActionForm>
  );
}

/** "Edit": a webhook's name and body handling; its URL stays the same. */
export function WebhookEditForm({
  workflowId,
  fields,
  webhook,
  action,
  onDone,
}: {
  workflowId: string;
  fields: Field[];
  webhook: WebhookRow;
  action: WebhookActions["update"];
  onDone: () => void;
}) {
  const [state, formAction, pending] = useActionState<FormResult, FormData>(action, { status: "idle" });
  const [mode, setMode] = useState<WebhookRow["inputMode"]>(webhook.inputMode);
  useDoneOnOk(state, onDone);
  return (
    <ActionForm action={formAction} pending={pending} className="grid gap-4" noValidate>
      <input type="hidden" name="workflowId" value={workflowId} />
      <input type="hidden" name="id" value={webhook.id} />
      <WebhookFields fields={fields} mode={mode} onMode={setMode} state={state} initial={webhook} />
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <SubmitButton>Save webhook</SubmitButton>
      </div>
    </ActionForm>
  );
}

/** The fields both forms share: the refusal, the name, the body mode and (payload mode) the input field. */
function WebhookFields({
  fields,
  mode,
  onMode,
  state,
  initial,
}: {
  fields: Field[];
  mode: WebhookRow["inputMode"];
  onMode: (m: WebhookRow["inputMode"]) => void;
  state: { status: string; message?: string; fieldErrors?: Errors };
  initial?: WebhookRow;
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
        label="Name"
        error={errors.name}
        hint="Who will call it, so you know which URL to replace if it leaks."
      >
        <Input name="name" placeholder="GitHub issues" maxLength={80} defaultValue={initial?.name} required autoFocus />
      </FormField>
      <FormField
        label="The request body"
        hint={
          mode === "fields"
            ? "A JSON object or form fields; keys that are not input fields are ignored."
            : "For senders whose events you cannot shape: the workflow reads the event from one input."
        }
      >
        <Select name="inputMode" value={mode} onChange={(e) => onMode(e.target.value as WebhookRow["inputMode"])}>
          <option value="fields">Its fields fill the input fields of the same names</option>
          <option value="payload">The whole body goes into one input field</option>
        </Select>
      </FormField>
      {mode === "payload" && (
        <FormField
          label="Input field"
          error={errors.payloadField}
          hint="A json field gets the parsed body; a text field gets the body as it came."
        >
          <Select
            name="payloadField"
            defaultValue={initial?.payloadField ?? fields.find((f) => f.type === "json")?.key ?? fields[0]?.key ?? ""}
          >
            {fields.length === 0 && <option value="">The workflow has no input fields</option>}
            {fields.map((f) => (
              <option key={f.key} value={f.key}>
                {f.key} ({f.type})
              </option>
            ))}
          </Select>
        </FormField>
      )}
    </>
  );
}
