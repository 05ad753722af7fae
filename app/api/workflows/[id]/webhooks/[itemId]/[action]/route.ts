import { actionRoute, webhooksResource } from "../../../trigger-routes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** An action on one of the workflow's webhooks (see trigger-routes.ts). */
export const { POST } = actionRoute(webhooksResource);
