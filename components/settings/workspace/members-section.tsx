"use client";
import { useTransition } from "react";
import { toastOutcome } from "@/components/ui/action-result";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ROLES, type Role } from "@/lib/roles";
import type { FormResult } from "../types";

export interface MemberRow {
  userId: string;
  name: string | null;
  email: string | null;
  role: Role;
}

/** The workspace's members; an owner changes roles and removes members (from the next request on). */
export function MembersSection({
  members,
  me,
  canManage,
  setRole,
  remove,
}: {
  members: MemberRow[];
  me: string;
  canManage: boolean;
  setRole: (userId: string, role: string) => Promise<FormResult>;
  remove: (userId: string) => Promise<FormResult>;
}) {
  const [pending, startTransition] = useTransition();
  const act = (fn: () => Promise<FormResult>) => startTransition(async () => toastOutcome(await fn()));
  return (
    <section aria-labelledby="members-heading" className="grid gap-3">
      <h2 id="members-heading" className="text-base font-semibold">
        Members
      </h2>
      <Card className="overflow-x-auto">
        <table className="w-full text-sm">
          <tbody className="divide-y divide-border">
            {members.map((m) => (
              <tr key={m.userId} data-testid="member-row" data-email={m.email ?? ""}>
                <td className="px-4 py-3">
                  <span className="font-medium">{m.name ?? m.email}</span>
                  {m.userId === me && <span className="ml-2 text-xs text-muted">(you)</span>}
                  <span className="block text-xs text-muted">{m.email}</span>
                </td>
                <td className="px-4 py-3">
                  {canManage ? (
                    <select
                      aria-label={`Role of ${m.email ?? m.name ?? "member"}`}
                      data-testid="member-role"
                      defaultValue={m.role}
                      disabled={pending}
                      onChange={(e) => act(() => setRole(m.userId, e.target.value))}
                      className="rounded-md border border-border bg-background px-2 py-1"
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span data-testid="member-role-text">{m.role}</span>
                  )}
                </td>
                <td className="px-4 py-3 text-right">
                  {canManage && m.userId !== me && (
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-danger"
                      data-testid="member-remove"
                      disabled={pending}
                      onClick={() => act(() => remove(m.userId))}
                    >
                      Remove
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </section>
  );
}
