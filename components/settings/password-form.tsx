"use client";
import { useActionState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import type { FormResult } from "./types";

/** Changes the account's password; on success every session, this one included, must sign in again. */
export function PasswordForm({ action }: { action: (prev: FormResult, form: FormData) => Promise<FormResult> }) {
  const [state, formAction, pending] = useActionState<FormResult, FormData>(action, { status: "idle" });
  const errors = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Changing it signs you out everywhere, this browser included.</CardDescription>
      </CardHeader>
      <CardContent>
        <ActionForm
          action={formAction}
          pending={pending}
          className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
        >
          <FormField label="Current password" error={errors.current}>
            <Input name="current" type="password" autoComplete="current-password" required />
          </FormField>
          <FormField label="New password" error={errors.next} hint="At least 10 characters.">
            <Input name="next" type="password" autoComplete="new-password" minLength={10} required />
          </FormField>
          <div className="sm:pt-[1.625rem]">
            <SubmitButton variant="outline">Change password</SubmitButton>
          </div>
        </ActionForm>
        {state.status === "error" && state.message && (
          <p role="alert" className="mt-2 text-sm text-danger">
            {state.message}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
