import { actionRoute, schedulesResource } from "../../../trigger-routes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** An action on one of the workflow's schedules (see trigger-routes.ts). */
export const { POST } = actionRoute(schedulesResource);
