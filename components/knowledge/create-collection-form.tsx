"use client";
import { useActionState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import type { ActionResult } from "./types";

/** Name (+ description) of a new collection; the action opens it on success. */
export function CreateCollectionForm({
  action,
}: {
  action: (prev: ActionResult, form: FormData) => Promise<ActionResult>;
}) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" } as ActionResult);
  const errors = state.status === "error" ? state.fieldErrors : undefined;
  return (
    <Card className="p-5">
      <ActionForm
        action={formAction}
        pending={pending}
        className="grid gap-3 sm:grid-cols-[1fr_2fr_auto] sm:items-end"
        data-testid="kb-create-collection"
      >
        <FormField label="Collection name" error={errors?.name}>
          <Input name="name" required maxLength={80} placeholder="e.g. filings" />
        </FormField>
        <FormField label="Description (optional)" error={errors?.description}>
          <Input name="description" maxLength={1000} placeholder="What these documents are" />
        </FormField>
        <SubmitButton>Create collection</SubmitButton>
      </ActionForm>
      {state.status === "error" && !errors?.name && !errors?.description && (
        <p className="mt-2 text-sm text-danger" role="alert">
          {state.message}
        </p>
      )}
    </Card>
  );
}
