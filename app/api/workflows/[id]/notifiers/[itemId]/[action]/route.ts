import { actionRoute, notifiersResource } from "../../../trigger-routes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** An action on one of the workflow's notifiers (see trigger-routes.ts). */
export const { POST } = actionRoute(notifiersResource);
