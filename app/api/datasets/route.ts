import { listDatasets } from "@/lib/evals/datasets";
import { requireCaller } from "@/lib/http/caller";
import { handle } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The caller's datasets: id, name, workflow, current version and its row count. */
export async function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    return Response.json({ datasets: await listDatasets(caller.workspaceId) });
  });
}
