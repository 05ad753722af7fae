import { itemRoutes, schedulesResource } from "../../trigger-routes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One of the workflow's schedules: replace and delete (see trigger-routes.ts). */
export const { PUT, DELETE } = itemRoutes(schedulesResource);
