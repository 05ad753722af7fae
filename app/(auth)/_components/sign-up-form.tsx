"use client";
import { useActionState } from "react";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { type AuthFormState, signUpAction } from "../actions";
import { FormAlert } from "./form-alert";

/** Name, email and password (≥ 10 characters); then the sign-in page (which never says whether the email was taken). */
export function SignUpForm() {
  const [state, action] = useActionState<AuthFormState, FormData>(signUpAction, {});
  return (
    <form action={action} className="grid gap-4" noValidate>
      <FormAlert message={state.error} />
      <FormField label="Name" error={state.fieldErrors?.name}>
        <Input name="name" autoComplete="name" required defaultValue={state.values?.name} />
      </FormField>
      <FormField label="Email" error={state.fieldErrors?.email}>
        <Input name="email" type="email" autoComplete="email" required defaultValue={state.values?.email} />
      </FormField>
      <FormField label="Password" error={state.fieldErrors?.password} hint="At least 10 characters.">
        <Input name="password" type="password" autoComplete="new-password" required minLength={10} />
      </FormField>
      <SubmitButton className="w-full">Create account</SubmitButton>
    </form>
  );
}
