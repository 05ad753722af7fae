import { collectionRoutes, notifiersResource } from "../trigger-routes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The workflow's notifiers: list and create (see trigger-routes.ts). */
export const { GET, POST } = collectionRoutes(notifiersResource);
