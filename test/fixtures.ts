import "server-only";
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { createApiToken } from "@/lib/db/api-tokens";
import { db } from "@/lib/db/client";
import { createWorkspace } from "@/lib/db/workspaces";
import { ROLES, type Role } from "@/lib/roles";
import type { RunStatus } from "@/lib/engine/events";
import type { Prisma } from "@/lib/generated/prisma/client";
import { workflowSchema, type WorkflowInput } from "@/lib/workflow/schema";

/** Test-only helpers (imported by *.int.test.ts): users, workflows and runs straight in the database. */

/** start → end: the smallest valid workflow. */
export const minimalWorkflow: WorkflowInput = {
  name: "Minimal",
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end" },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};

/** A user with an API token (for Bearer requests). */
export async function createTestUser(): Promise<{ id: string; token: string; auth: Record<string, string> }> {
  const user = await db().user.create({ data: { email: `u-${randomBytes(6).toString("hex")}@test.local` } });
  const { token } = await createApiToken(user.id, user.id, "test");
  return { id: user.id, token, auth: { authorization: `Bearer ${token}` } };
}

/** A workflow with its draft and version 1 of `document`. */
export async function createTestWorkflow(
  workspaceId: string,
  document: WorkflowInput = minimalWorkflow,
): Promise<{ workflowId: string; versionId: string }> {
  const doc = workflowSchema.parse(document) as unknown as Prisma.InputJsonValue;
  const wf = await db().workflow.create({ data: { workspaceId, name: "Test workflow", draft: doc } });
  const v = await db().workflowVersion.create({ data: { workflowId: wf.id, version: 1, document: doc } });
  return { workflowId: wf.id, versionId: v.id };
}

/** A run row (no job) in `status` of a fresh minimal workflow. */
export async function createTestRun(
  workspaceId: string,
  status: RunStatus = "running",
  document?: WorkflowInput,
): Promise<string> {
  const { versionId } = await createTestWorkflow(workspaceId, document);
  const run = await db().run.create({ data: { workspaceId, workflowVersionId: versionId, status } });
  return run.id;
}

/** Waits until some session of the test database waits for a lock (a claim queued behind `other`'s open transaction). */
export async function untilSomeoneWaitsForALock(other: pg.Client): Promise<void> {
  for (let i = 0; ; i++) {
    const waiting = await other.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((waiting.rows[0] as { n: number }).n > 0) return;
    if (i > 200) throw new Error("nobody waited for the row lock");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A shared workspace with one member per role (the owner made it), each holding an API token for
 * it: what role tests act as.
 */
export async function createTestTeam(): Promise<{
  workspaceId: string;
  members: Record<Role, { id: string; auth: Record<string, string> }>;
}> {
  const owner = await createTestUser();
  const workspaceId = (await createWorkspace(owner.id, "Team")).id;
  const members = {} as Record<Role, { id: string; auth: Record<string, string> }>;
  for (const role of ROLES) {
    const user = role === "owner" ? owner : await createTestUser();
    if (role !== "owner") await db().membership.create({ data: { workspaceId, userId: user.id, role } });
    const { token } = await createApiToken(workspaceId, user.id, `${role} token`);
    members[role] = { id: user.id, auth: { authorization: `Bearer ${token}` } };
  }
  return { workspaceId, members };
}
