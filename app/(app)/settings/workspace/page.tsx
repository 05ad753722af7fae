import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { InviteSection } from "@/components/settings/workspace/invite-section";
import { MembersSection } from "@/components/settings/workspace/members-section";
import { DangerZone, NameForm } from "@/components/settings/workspace/workspace-forms";
import { requireAccess } from "@/lib/auth/access";
import { listAudit } from "@/lib/db/audit";
import { listMembers, listOpenInvitations, listWorkspaces } from "@/lib/db/workspaces";
import { allows, ROLE_SUMMARY } from "@/lib/roles";
import {
  createWorkspaceAction,
  deleteWorkspaceAction,
  inviteAction,
  leaveWorkspaceAction,
  removeMemberAction,
  renameWorkspaceAction,
  revokeInvitationAction,
  setMemberRoleAction,
} from "./actions";

export const metadata: Metadata = { title: "Workspace" };

/** The current workspace: its members and roles, invitations, the audit log; and a new workspace. */
export default async function WorkspacePage() {
  const access = await requireAccess("read", "/settings/workspace");
  const owner = allows(access.role, "manage");
  const [workspaces, members, invitations, audit] = await Promise.all([
    listWorkspaces(access.userId),
    listMembers(access.workspaceId),
    owner ? listOpenInvitations(access.workspaceId) : Promise.resolve([]),
    owner ? listAudit(access.workspaceId, 50) : Promise.resolve([]),
  ]);
  const current = workspaces.find((w) => w.id === access.workspaceId);
  return (
    <>
      <PageHeader
        title={current?.name ?? "Workspace"}
        description={`Your role here: ${access.role}. ${ROLE_SUMMARY[access.role]}`}
      />
      <div className="grid grid-cols-1 gap-8">
        {owner && (
          <NameForm
            label="Workspace name"
            submit="Rename"
            action={renameWorkspaceAction}
            defaultValue={current?.name}
            testId="workspace-rename"
          />
        )}
        <MembersSection
          members={members}
          me={access.userId}
          canManage={owner}
          setRole={setMemberRoleAction}
          remove={removeMemberAction}
        />
        {owner && <InviteSection invitations={invitations} invite={inviteAction} revoke={revokeInvitationAction} />}
        {owner && (
          <section aria-labelledby="audit-heading" className="grid gap-3">
            <h2 id="audit-heading" className="text-base font-semibold">
              Audit log
            </h2>
            <Card className="overflow-x-auto">
              <table className="w-full text-sm" data-testid="audit-log">
                <tbody className="divide-y divide-border">
                  {audit.map((e) => (
                    <tr key={e.id} data-testid="audit-row" data-action={e.action}>
                      <td className="px-4 py-2 text-muted">{e.createdAt.toLocaleString("en")}</td>
                      <td className="px-4 py-2">{e.actorName ?? "deleted account"}</td>
                      <td className="px-4 py-2 font-mono text-xs">{e.action}</td>
                      <td className="px-4 py-2 font-mono text-xs">
                        {e.targetType} {e.targetId}
                      </td>
                      <td className="px-4 py-2 text-muted">{e.via}</td>
                    </tr>
                  ))}
                  {audit.length === 0 && (
                    <tr>
                      <td className="px-4 py-3 text-muted">Nothing recorded yet.</td>
                    </tr>
                  )}
                </tbody>
              </table>
            </Card>
          </section>
        )}
        <section aria-labelledby="new-workspace-heading" className="grid gap-3">
          <h2 id="new-workspace-heading" className="text-base font-semibold">
            New workspace
          </h2>
          <p className="text-sm text-muted">
            A shared workspace for a team: its workflows, runs, tools, providers and credentials are its own, and its
            members act with their roles.
          </p>
          <NameForm label="Name" submit="Create workspace" action={createWorkspaceAction} testId="workspace-create" />
        </section>
        <DangerZone
          canDelete={owner && !current?.personal}
          canLeave={!current?.personal}
          remove={deleteWorkspaceAction}
          leave={leaveWorkspaceAction}
        />
      </div>
    </>
  );
}
