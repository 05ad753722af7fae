"use client";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { acceptInvitationAction } from "./actions";

/** "Join workspace": accepts the invitation; a refusal (used, expired, other address) is shown here. */
export function AcceptInvitationForm({ token }: { token: string }) {
  const [error, dispatch, pending] = useActionState(acceptInvitationAction, null);
  return (
    <form action={dispatch} className="flex flex-col gap-3">
      <input type="hidden" name="token" value={token} />
      {error && (
        <p role="alert" className="text-sm text-danger" data-testid="invitation-error">
          {error}
        </p>
      )}
      <Button type="submit" loading={pending} data-testid="invitation-accept">
        Join workspace
      </Button>
    </form>
  );
}
