"use client";
import { useActionState, useTransition } from "react";
import { toastOutcome } from "@/components/ui/action-result";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ROLES, ROLE_SUMMARY, type Role } from "@/lib/roles";
import type { FormResult } from "../types";

export interface InvitationRow {
  id: string;
  role: Role;
  email: string | null;
  expiresAt: Date;
}

type InviteResult = FormResult | { status: "ok"; message: string; link: string };

/** Invitation links: make one (shown once), see the open ones, revoke. */
export function InviteSection({
  invitations,
  invite,
  revoke,
}: {
  invitations: InvitationRow[];
  invite: (prev: InviteResult, form: FormData) => Promise<InviteResult>;
  revoke: (id: string) => Promise<FormResult>;
}) {
  const [state, dispatch, pending] = useActionState(invite, { status: "idle" });
  const [revoking, startTransition] = useTransition();
  const link = state.status === "ok" && "link" in state ? state.link : null;
  return (
    <section aria-labelledby="invite-heading" className="grid gap-3">
      <h2 id="invite-heading" className="text-base font-semibold">
        Invite
      </h2>
      <Card className="p-4">
        <form action={dispatch} className="flex flex-wrap items-end gap-3" data-testid="invite-form">
          <label className="grid gap-1 text-sm">
            Role
            <select
              name="role"
              defaultValue="runner"
              className="rounded-md border border-border bg-background px-2 py-1"
            >
              {ROLES.map((r) => (
                <option key={r} value={r} title={ROLE_SUMMARY[r]}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <label className="grid gap-1 text-sm">
            Valid for (hours)
            <input
              name="expiresInHours"
              type="number"
              min={1}
              max={720}
              defaultValue={168}
              className="w-24 rounded-md border border-border bg-background px-2 py-1"
            />
          </label>
          <label className="grid gap-1 text-sm">
            Only for this email (optional)
            <input name="email" type="email" className="rounded-md border border-border bg-background px-2 py-1" />
          </label>
          <Button type="submit" loading={pending} data-testid="invite-create">
            Make invitation link
          </Button>
        </form>
        {state.status === "error" && (
          <p role="alert" className="mt-3 text-sm text-danger">
            {state.message}
          </p>
        )}
        {link && (
          <p className="mt-3 text-sm" role="status">
            Send this link (shown once):{" "}
            <code className="break-all font-mono text-xs" data-testid="invite-link">
              {typeof window === "undefined" ? link : `${window.location.origin}${link}`}
            </code>
          </p>
        )}
      </Card>
      {invitations.length > 0 && (
        <ul className="grid gap-1 text-sm" aria-label="Open invitations">
          {invitations.map((i) => (
            <li key={i.id} className="flex items-center gap-3" data-testid="invitation-row">
              <span>
                {i.role}
                {i.email ? ` · ${i.email}` : ""} · until {i.expiresAt.toLocaleString("en")}
              </span>
              <Button
                size="sm"
                variant="ghost"
                disabled={revoking}
                onClick={() => startTransition(async () => toastOutcome(await revoke(i.id)))}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
