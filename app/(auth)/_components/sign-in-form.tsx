"use client";
import { useActionState, useEffect, useState } from "react";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { type AuthFormState, signInAction } from "../actions";
import { FormAlert } from "./form-alert";

/** Email + password form; errors and the rate-limit countdown show inline. */
export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const [state, action] = useActionState<AuthFormState, FormData>(signInAction, { error: initialError });
  const [wait, setWait] = useState(0);
  useEffect(() => {
    if (!state.retryAfter) return;
    const until = Date.now() + state.retryAfter * 1000;
    const tick = () => setWait(Math.max(0, Math.ceil((until - Date.now()) / 1000)));
    tick();
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [state]);

  return (
    <form action={action} className="grid gap-4" noValidate>
      <FormAlert message={state.error} />
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <FormField label="Email" error={state.fieldErrors?.email}>
        <Input name="email" type="email" autoComplete="email" required defaultValue={state.values?.email} />
      </FormField>
      <FormField label="Password" error={state.fieldErrors?.password}>
        <Input name="password" type="password" autoComplete="current-password" required />
      </FormField>
      <SubmitButton className="w-full" disabled={wait > 0}>
        {wait > 0 ? `Try again in ${wait}s` : "Sign in"}
      </SubmitButton>
    </form>
  );
}
