"use client";
import { createContext, startTransition, type FormEvent, type FormHTMLAttributes } from "react";

/** Whether the enclosing ActionForm's action is running (SubmitButton reads it). */
export const ActionFormPending = createContext(false);

interface ActionFormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, "action" | "onSubmit"> {
  /** A useActionState dispatch. */
  action: (form: FormData) => void;
  /** useActionState's isPending. */
  pending: boolean;
}

/**
 * A form that submits to a useActionState dispatch without React's automatic form reset: React
 * resets a `<form action>`'s uncontrolled fields after every action, refused or not, so a
 * validation error would wipe what the user typed. The dispatch runs in a transition as React
 * requires outside `action`; the submitter's name and value are sent as a native submit would.
 */
export function ActionForm({ action, pending, children, ...rest }: ActionFormProps) {
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const data = new FormData(e.currentTarget, submitter instanceof HTMLElement ? submitter : null);
    startTransition(() => action(data));
  };
  return (
    <ActionFormPending value={pending}>
      <form {...rest} onSubmit={submit}>
        {children}
      </form>
    </ActionFormPending>
  );
}
