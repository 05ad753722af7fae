import { itemRoutes, notifiersResource } from "../../trigger-routes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One of the workflow's notifiers: replace and delete (see trigger-routes.ts). */
export const { PUT, DELETE } = itemRoutes(notifiersResource);
