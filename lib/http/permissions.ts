import type { Permission } from "@/lib/roles";

/**
 * What each REST route needs of its caller's role in the workspace it acts in (lib/roles.ts): the
 * one table `requireCaller` enforces and the role matrix test (app/api/roles.int.test.ts) is
 * generated from. A route missing here is refused (fail closed); the test also checks that every
 * route file's methods are listed. `public` routes authenticate otherwise: sign-in, health, the
 * metrics scrape (its own bearer token), webhook receivers (the URL's secret), share links (the
 * link's token) and the MCP endpoint (an API token; reading tools needs `read`, calling one `run`).
 */
export const ROUTE_PERMISSIONS = {
  "GET /api/auth/[...nextauth]": "public",
  "POST /api/auth/[...nextauth]": "public",
  "GET /api/health": "public",
  "GET /api/metrics": "public",
  "POST /api/hooks/[secret]": "public",
  "GET /api/share/[token]": "public",
  "POST /api/share/[token]": "public",
  "PUT /api/share/[token]": "public",
  "PATCH /api/share/[token]": "public",
  "DELETE /api/share/[token]": "public",
  "GET /api/share/[token]/events": "public",
  "GET /api/mcp": "public",
  "POST /api/mcp": "public",
  "DELETE /api/mcp": "public",

  "GET /api/workflows": "read",
  "GET /api/workflows/[id]": "read",
  "GET /api/workflows/[id]/runs": "read",
  "POST /api/workflows/[id]/runs": "run",
  "POST /api/workflows/[id]/simplify": "edit",
  "GET /api/workflows/[id]/schedules": "read",
  "POST /api/workflows/[id]/schedules": "edit",
  "PUT /api/workflows/[id]/schedules/[itemId]": "edit",
  "DELETE /api/workflows/[id]/schedules/[itemId]": "edit",
  "POST /api/workflows/[id]/schedules/[itemId]/[action]": "edit",
  "GET /api/workflows/[id]/webhooks": "read",
  "POST /api/workflows/[id]/webhooks": "edit",
  "PUT /api/workflows/[id]/webhooks/[itemId]": "edit",
  "DELETE /api/workflows/[id]/webhooks/[itemId]": "edit",
  "POST /api/workflows/[id]/webhooks/[itemId]/[action]": "edit",
  "GET /api/workflows/[id]/notifiers": "read",
  "POST /api/workflows/[id]/notifiers": "edit",
  "PUT /api/workflows/[id]/notifiers/[itemId]": "edit",
  "DELETE /api/workflows/[id]/notifiers/[itemId]": "edit",
  "POST /api/workflows/[id]/notifiers/[itemId]/[action]": "edit",

  "GET /api/runs": "read",
  "GET /api/runs/[id]": "read",
  "GET /api/runs/[id]/events": "read",
  "POST /api/runs/[id]/answer": "run",
  "POST /api/runs/[id]/cancel": "run",
  "POST /api/runs/[id]/fork": "run",
  "POST /api/runs/[id]/rerun": "run",
  "POST /api/runs/[id]/retry": "run",
  "GET /api/runs/[id]/share": "read",
  "POST /api/runs/[id]/share": "run",
  "DELETE /api/runs/[id]/share/[linkId]": "run",

  "GET /api/datasets": "read",
  "GET /api/datasets/[id]/export": "read",
  "POST /api/datasets/[id]/rows": "edit",
  "GET /api/experiments": "read",
  "POST /api/experiments": "run",
  "GET /api/experiments/[id]": "read",
  "POST /api/experiments/[id]/cancel": "run",

  "POST /api/designer": "edit",
  "GET /api/designer/evaluations": "read",
  "POST /api/designer/evaluations": "edit",
  "GET /api/designer/evaluations/[id]": "read",
  "GET /api/kb/collections/[id]/documents": "read",
  "POST /api/kb/collections/[id]/documents": "edit",
  "GET /api/providers/[id]/models": "edit",

  // routes of pages, outside /api: the runs list's feed and the "Create tool" dialog's stream
  "GET /runs/feed": "read",
  "POST /tools/create": "edit",
} as const satisfies Record<string, Permission | "public">;

export type RouteKey = keyof typeof ROUTE_PERMISSIONS;

const compiled = Object.entries(ROUTE_PERMISSIONS).map(([key, permission]) => {
  const [method, pattern] = key.split(" ") as [string, string];
  const segments = pattern.split("/").filter(Boolean);
  return { key, method, segments, permission: permission as Permission | "public" };
});

/** The table's entry for a request's method and path, or null when the route is not listed. */
export function routeEntry(
  method: string,
  pathname: string,
): { key: string; permission: Permission | "public" } | null {
  const parts = pathname.split("/").filter(Boolean);
  for (const e of compiled) {
    if (e.method !== method.toUpperCase()) continue;
    const rest = e.segments.findIndex((s) => s.startsWith("[..."));
    if (rest === -1 ? parts.length !== e.segments.length : parts.length < rest + 1) continue;
    if (e.segments.every((s, i) => s.startsWith("[") || s === parts[i]))
      return { key: e.key, permission: e.permission };
  }
  return null;
}

/**
 * What each server action needs of the member's role in their current workspace, keyed
 * "<file under app/>#<export>": each action asks requireAccess (lib/auth/access.ts) for this
 * permission before anything else, and the action role matrix (app/(app)/roles.int.test.ts) calls
 * every one as every role. `public`: signing in and up. `signed-in`: accepting an invitation (the
 * link is the grant).
 */
export const ACTION_PERMISSIONS: Record<string, Permission | "public" | "signed-in"> = {
  "(app)/agents/actions.ts#saveAgentAction": "edit",
  "(app)/agents/actions.ts#duplicateAgentAction": "edit",
  "(app)/agents/actions.ts#deleteAgentAction": "edit",
  "(app)/datasets/actions.ts#createDatasetAction": "edit",
  "(app)/datasets/actions.ts#removeRowAction": "edit",
  "(app)/datasets/actions.ts#addRunToDatasetAction": "edit",
  "(app)/datasets/actions.ts#startExperimentAction": "run",
  "(app)/datasets/actions.ts#cancelExperimentAction": "run",
  "(app)/datasets/actions.ts#createTemplateDatasetAction": "edit",
  "(app)/knowledge/actions.ts#createCollectionAction": "edit",
  "(app)/knowledge/actions.ts#deleteCollectionAction": "edit",
  "(app)/knowledge/actions.ts#deleteDocumentAction": "edit",
  "(app)/knowledge/actions.ts#searchAction": "read",
  "(app)/knowledge/actions.ts#askAction": "run",
  "(app)/settings/actions.ts#saveProviderAction": "edit",
  "(app)/settings/actions.ts#deleteProviderAction": "edit",
  "(app)/settings/actions.ts#testProviderAction": "edit",
  "(app)/settings/actions.ts#saveDesignerAction": "read",
  "(app)/settings/credential-actions.ts#saveCredentialAction": "edit",
  "(app)/settings/credential-actions.ts#deleteCredentialAction": "edit",
  "(app)/settings/password-actions.ts#changePasswordAction": "read",
  "(app)/settings/price-actions.ts#savePricesAction": "read",
  "(app)/settings/token-actions.ts#createApiTokenAction": "read",
  "(app)/settings/token-actions.ts#revokeApiTokenAction": "read",
  "(app)/settings/workspace/actions.ts#switchWorkspaceAction": "read",
  "(app)/settings/workspace/actions.ts#createWorkspaceAction": "read",
  "(app)/settings/workspace/actions.ts#renameWorkspaceAction": "manage",
  "(app)/settings/workspace/actions.ts#deleteWorkspaceAction": "manage",
  "(app)/settings/workspace/actions.ts#inviteAction": "manage",
  "(app)/settings/workspace/actions.ts#revokeInvitationAction": "manage",
  "(app)/settings/workspace/actions.ts#setMemberRoleAction": "manage",
  "(app)/settings/workspace/actions.ts#removeMemberAction": "manage",
  "(app)/settings/workspace/actions.ts#leaveWorkspaceAction": "read",
  "(app)/tools/actions.ts#approveToolVersionAction": "edit",
  "(app)/tools/actions.ts#revokeToolVersionAction": "edit",
  "(app)/tools/actions.ts#deleteToolAction": "edit",
  "(app)/tools/actions.ts#rerunToolTestsAction": "edit",
  "(app)/tools/actions.ts#saveMcpServerAction": "edit",
  "(app)/workflows/[id]/edit/actions.ts#saveDraftAction": "edit",
  "(app)/workflows/[id]/edit/actions.ts#saveVersionAction": "edit",
  "(app)/workflows/[id]/edit/actions.ts#listVersionsAction": "read",
  "(app)/workflows/[id]/edit/actions.ts#getVersionAction": "read",
  "(app)/workflows/[id]/edit/actions.ts#restoreVersionAction": "edit",
  "(app)/workflows/[id]/edit/run-action.ts#startRunAction": "run",
  "(app)/workflows/[id]/notifier-actions.ts#updateNotifierAction": "edit",
  "(app)/workflows/[id]/notifier-actions.ts#createNotifierAction": "edit",
  "(app)/workflows/[id]/notifier-actions.ts#pingNotifierAction": "edit",
  "(app)/workflows/[id]/notifier-actions.ts#pauseNotifierAction": "edit",
  "(app)/workflows/[id]/notifier-actions.ts#deleteNotifierAction": "edit",
  "(app)/workflows/[id]/notifier-actions.ts#redeliverAction": "edit",
  "(app)/workflows/[id]/schedule-actions.ts#saveScheduleAction": "edit",
  "(app)/workflows/[id]/schedule-actions.ts#pauseScheduleAction": "edit",
  "(app)/workflows/[id]/schedule-actions.ts#deleteScheduleAction": "edit",
  "(app)/workflows/[id]/webhook-actions.ts#createWebhookAction": "edit",
  "(app)/workflows/[id]/webhook-actions.ts#pauseWebhookAction": "edit",
  "(app)/workflows/[id]/webhook-actions.ts#rotateWebhookAction": "edit",
  "(app)/workflows/[id]/webhook-actions.ts#deleteWebhookAction": "edit",
  "(app)/workflows/[id]/webhook-actions.ts#updateWebhookAction": "edit",
  "(app)/workflows/actions.ts#createWorkflowAction": "edit",
  "(app)/workflows/actions.ts#deleteWorkflowAction": "edit",
  "(app)/workflows/new/actions.ts#describeWorkflowAction": "edit",
  "(app)/workflows/new/actions.ts#createFromGalleryAction": "edit",
  "(auth)/actions.ts#signInAction": "public",
  "(auth)/actions.ts#signUpAction": "public",
  "(auth)/actions.ts#githubSignInAction": "public",
  "(auth)/invite/[token]/actions.ts#acceptInvitationAction": "signed-in",
};
