import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { createWorkspace } from "@/lib/db/workspaces";
import { ACTION_PERMISSIONS } from "@/lib/http/permissions";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { allows, ROLES, type Permission, type Role } from "@/lib/roles";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { createTestTeam } from "@/test/fixtures";

/**
 * The server actions' role matrix, generated from ACTION_PERMISSIONS (lib/http/permissions.ts):
 * every exported action of every "use server" file × every role of a shared workspace. What stands
 * in for Next here is only the request itself: the signed-in user (Auth.js's cookie decoding) and
 * the cookie naming the workspace; the role lookup, the refusal and the action run for real. An
 * action refused answers (or throws) the forbidden error naming role and permission, before it
 * reads its arguments; one allowed goes past the gate (its empty arguments are then refused).
 */
useTestDatabase();

const session = vi.hoisted(() => ({ userId: "", workspaceId: "" }));
vi.mock("@/lib/auth/session", () => ({
  currentUser: async () =>
    session.userId
      ? { id: session.userId, email: `${session.userId}@test.local`, name: null, sessionVersion: 0 }
      : null,
}));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (name === "weft-workspace" ? { name, value: session.workspaceId } : undefined),
    set: () => undefined,
  }),
  headers: async () => new Headers(),
}));

const modules = import.meta.glob<Record<string, unknown>>("./**/*.ts");
const sources = import.meta.glob<string>("/app/**/*.ts", { query: "?raw", import: "default" });
const members = {} as Record<Role, string>;
let workspaceId = "";

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  const team = await createTestTeam();
  workspaceId = team.workspaceId;
  for (const role of ROLES) members[role] = team.members[role].id;
});
afterAll(async () => {
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeRunsQueue();
  await closeApiRedis();
  await closeRunLimiter();
});

/** "(app)/settings/actions.ts" from a glob key "/app/(app)/settings/actions.ts". */
const keyOf = (file: string) => file.slice("/app/".length);

/** Empty arguments shaped by the action's arity: (), (form), (state, form), or strings. */
function argsFor(fn: (...a: unknown[]) => unknown): unknown[] {
  if (fn.length === 1) return [new FormData()];
  if (fn.length === 2) return [{ status: "idle" }, new FormData()];
  return Array.from({ length: fn.length }, () => "x");
}

/** Whether calling the action as `role` (in the shared workspace, or `inWorkspace`) was refused for its role. */
async function refused(key: string, role: Role, inWorkspace = workspaceId): Promise<boolean> {
  session.userId = members[role];
  session.workspaceId = inWorkspace;
  const [file, name] = key.split("#") as [string, string];
  const fn = (await modules[`./${file.slice("(app)/".length)}`]!())[name] as (...a: unknown[]) => unknown;
  try {
    const answer = await fn(...argsFor(fn));
    return JSON.stringify(answer ?? null).includes("does not allow this");
  } catch (err) {
    return (err as { code?: string }).code === "forbidden" && String((err as Error).message).includes(`(${role})`);
  }
}

describe("the action permission table", () => {
  it('lists every exported action of every "use server" file, and nothing else', async () => {
    const found: string[] = [];
    for (const [file, load] of Object.entries(sources)) {
      const source = await load();
      if (!/^\s*["']use server["']/.test(source)) continue;
      for (const m of source.matchAll(/^export async function (\w+)/gm)) found.push(`${keyOf(file)}#${m[1]}`);
    }
    expect(found.sort()).toEqual(Object.keys(ACTION_PERMISSIONS).sort());
  });
});

const gated = Object.entries(ACTION_PERMISSIONS).filter(([, p]) => p !== "public" && p !== "signed-in") as [
  string,
  Permission,
][];
/** Leaving and deleting a workspace change who is a member of what: each allowed call gets a workspace of its own. */
const changesMembership = (key: string) => /#(leave|delete)WorkspaceAction$/.test(key);

describe.each(gated)("%s (needs %s)", (key, permission) => {
  it.each(ROLES)("as %s", async (role) => {
    let where = workspaceId;
    if (changesMembership(key) && allows(role, permission)) {
      where = (await createWorkspace(members.owner, `Own ${role}`)).id;
      if (role !== "owner") await db().membership.create({ data: { workspaceId: where, userId: members[role], role } });
    }
    expect(await refused(key, role, where)).toBe(!allows(role, permission));
  });
});
