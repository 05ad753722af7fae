/**
 * Workspace roles and what each may do (docs/security.md, "Workspaces and roles"). Roles are ordered:
 * each may do everything the ones below it may. The route and action tables (lib/http/permissions.ts)
 * name a permission per entry; lib/db/workspaces.ts checks a member's role against it.
 */
export const ROLES = ["viewer", "runner", "editor", "owner"] as const;
export type Role = (typeof ROLES)[number];

/**
 * read: see workflows, runs, agents, tools, datasets and their results.
 * run: start, cancel, retry and answer runs and experiments; make share links of runs.
 * edit: change workflows, agents, tools, providers, credentials, knowledge, triggers; approve tools.
 * manage: members, invitations, the workspace's name, deleting it.
 */
export const PERMISSIONS = ["read", "run", "edit", "manage"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The lowest role holding each permission. */
export const LOWEST_ROLE: Record<Permission, Role> = { read: "viewer", run: "runner", edit: "editor", manage: "owner" };

/** Whether `role` holds `permission`. */
export function allows(role: Role, permission: Permission): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(LOWEST_ROLE[permission]);
}

export const isRole = (value: unknown): value is Role => typeof value === "string" && ROLES.includes(value as Role);

/** What a role may do, in a sentence for the members page. */
export const ROLE_SUMMARY: Record<Role, string> = {
  owner: "Everything, and members, invitations and deleting the workspace.",
  editor: "Change workflows, agents, tools, providers and credentials; approve tools; run.",
  runner: "Start, cancel and answer runs; read everything else.",
  viewer: "Read workflows, runs and results.",
};
