import { collectionRoutes, webhooksResource } from "../trigger-routes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The workflow's webhooks: list and create (see trigger-routes.ts). */
export const { GET, POST } = collectionRoutes(webhooksResource);
