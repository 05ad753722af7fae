"use client";
import { useContext } from "react";
import { useFormStatus } from "react-dom";
import { ActionFormPending } from "./action-form";
import { Button, type ButtonProps } from "./button";

/** A submit button that shows a spinner while its form's action (a `<form action>` or an ActionForm) is pending. */
export function SubmitButton(props: Omit<ButtonProps, "type" | "loading">) {
  const { pending } = useFormStatus();
  const actionPending = useContext(ActionFormPending);
  return <Button {...props} type="submit" loading={pending || actionPending} />;
}
