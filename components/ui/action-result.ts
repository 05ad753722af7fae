"use client";
import { useEffect } from "react";
import { toast } from "sonner";

/** The shape every form and row action answers with (settings, agents, schedules). */
export type ActionOutcome =
  { status: "idle" } | { status: "ok"; message: string } | { status: "error"; message?: string };

/** Toasts an action's answer: its message on success, its message (else `failure`) on error. */
export function toastOutcome(r: ActionOutcome, failure = "Something went wrong."): void {
  if (r.status === "ok") toast.success(r.message);
  else if (r.status === "error") toast.error(r.message ?? failure);
}

/** A dialog form's "done": once its action answers ok, toast the message and call `onDone` (close). */
export function useDoneOnOk(state: ActionOutcome, onDone: () => void): void {
  useEffect(() => {
    if (state.status === "ok") {
      toast.success(state.message);
      onDone();
    }
  }, [state, onDone]);
}
