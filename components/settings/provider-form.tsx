"use client";
import { useActionState } from "react";
import { useDoneOnOk } from "@/components/ui/action-result";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { type FormResult, type ProviderRow, type SaveProviderAction, maskedKey } from "./types";

/** Add/edit form for a provider; on edit an empty key field keeps the stored key. */
export function ProviderForm({
  provider,
  action,
  onDone,
}: {
  provider?: ProviderRow;
  action: SaveProviderAction;
  onDone: () => void;
}) {
  const [state, formAction, pending] = useActionState<FormResult, FormData>(action, { status: "idle" });
  useDoneOnOk(state, onDone);
  const errors = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  return (
    <ActionForm action={formAction} pending={pending} className="grid gap-4" noValidate>
      {provider && <input type="hidden" name="id" value={provider.id} />}
      {state.status === "error" && state.message && (
        <p role="alert" className="rounded-md border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger">
          {state.message}
        </p>
      )}
      <FormField label="Name" error={errors.name}>
        <Input name="name" defaultValue={provider?.name} placeholder="OpenAI" required autoFocus />
      </FormField>
      <FormField label="Base URL" error={errors.baseUrl} hint="OpenAI-compatible, usually ending in /v1.">
        <Input
          name="baseUrl"
          type="url"
          defaultValue={provider?.baseUrl}
          placeholder="https://api.openai.com/v1"
          required
        />
      </FormField>
      <FormField label="Default model" error={errors.defaultModel}>
        <Input name="defaultModel" defaultValue={provider?.defaultModel} placeholder="gpt-4o-mini" required />
      </FormField>
      <FormField
        label="API key"
        error={errors.apiKey}
        hint={
          provider
            ? `Stored: ${maskedKey(provider.apiKeyLast4)}. Leave empty to keep it.`
            : "Encrypted at rest; only the last 4 characters are ever shown."
        }
      >
        <Input name="apiKey" type="password" autoComplete="off" placeholder={provider ? "Unchanged" : "sk-…"} />
      </FormField>
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <SubmitButton>{provider ? "Save changes" : "Add provider"}</SubmitButton>
      </div>
    </ActionForm>
  );
}
