import { describe, expect, it } from "vitest";
import { createApiToken, verifyApiToken } from "@/lib/db/api-tokens";
import { db } from "@/lib/db/client";
import {
  acceptInvitation,
  activeWorkspace,
  createInvitation,
  createWorkspace,
  deleteWorkspace,
  listWorkspaces,
  openInvitation,
  removeMember,
  revokeInvitation,
  roleIn,
  setMemberRole,
} from "@/lib/db/workspaces";
import { useTestDatabase } from "@/test/db";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";

useTestDatabase();

const emailOf = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).email;

describe("lib/db/workspaces", () => {
  it("gives every account a personal workspace it owns, and acts there unless a membership says otherwise", async () => {
    const a = await createTestUser();
    const b = await createTestUser();
    expect(await listWorkspaces(a.id)).toEqual([{ id: a.id, name: "Personal", role: "owner", personal: true }]);
    const team = await createWorkspace(a.id, "Team");
    expect(await activeWorkspace(a.id, team.id)).toEqual({ workspaceId: team.id, role: "owner" });
    // a cookie naming a workspace the user is not in falls back to their own
    expect(await activeWorkspace(b.id, team.id)).toEqual({ workspaceId: b.id, role: "owner" });
    expect(await activeWorkspace(b.id, a.id)).toEqual({ workspaceId: b.id, role: "owner" });
    await expect(removeMember(a.id, a.id)).rejects.toMatchObject({ code: "conflict" });
    await expect(deleteWorkspace(a.id)).rejects.toMatchObject({ code: "conflict" });
  });

  it("accepts an invitation once, for its address only, and not after it expired or was revoked", async () => {
    const owner = await createTestUser();
    const joiner = await createTestUser();
    const team = await createWorkspace(owner.id, "Invites");
    const bound = await createInvitation(team.id, owner.id, { role: "viewer", email: "someone@else.test" });
    await expect(
      acceptInvitation(bound.token, { id: joiner.id, email: await emailOf(joiner.id) }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    const open = await createInvitation(team.id, owner.id, { role: "runner" });
    expect(await openInvitation(open.token)).toMatchObject({ workspaceName: "Invites", role: "runner" });
    expect(await acceptInvitation(open.token, { id: joiner.id, email: null })).toEqual({
      workspaceId: team.id,
      role: "runner",
    });
    await expect(acceptInvitation(open.token, { id: owner.id, email: null })).rejects.toMatchObject({
      code: "not_found",
    });
    const revoked = await createInvitation(team.id, owner.id, { role: "editor" });
    expect(await revokeInvitation(team.id, revoked.id)).toBe(true);
    expect(await openInvitation(revoked.token)).toBeNull();
    const expired = await createInvitation(team.id, owner.id, { role: "editor" });
    await db().invitation.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await openInvitation(expired.token)).toBeNull();
    // an invitation to a lower role never lowers a member
    const lower = await createInvitation(team.id, owner.id, { role: "viewer" });
    expect((await acceptInvitation(lower.token, { id: joiner.id, email: null })).role).toBe("runner");
    await expect(createInvitation(team.id, owner.id, { role: "admin" as never })).rejects.toThrow();
  });

  it("keeps an owner, and a removed member's tokens stop at once while the workspace's rows stay", async () => {
    const owner = await createTestUser();
    const member = await createTestUser();
    const team = await createWorkspace(owner.id, "Keep");
    await db().membership.create({ data: { workspaceId: team.id, userId: member.id, role: "editor" } });
    await expect(setMemberRole(team.id, owner.id, "editor")).rejects.toMatchObject({ code: "conflict" });
    await setMemberRole(team.id, member.id, "owner");
    await setMemberRole(team.id, owner.id, "viewer");
    expect(await roleIn(owner.id, team.id)).toBe("viewer");
    await setMemberRole(team.id, owner.id, "owner");

    const { token } = await createApiToken(team.id, member.id, "script");
    const { workflowId } = await createTestWorkflow(team.id);
    expect(await verifyApiToken(token)).toMatchObject({ workspaceId: team.id, userId: member.id });
    await removeMember(team.id, member.id);
    expect(await roleIn(member.id, team.id)).toBeNull();
    expect(await verifyApiToken(token)).toBeNull();
    expect(await db().workflow.count({ where: { id: workflowId, workspaceId: team.id } })).toBe(1);

    await deleteWorkspace(team.id);
    expect(await db().workflow.count({ where: { id: workflowId } })).toBe(0);
    expect(await listWorkspaces(owner.id)).toHaveLength(1);
  });
});
