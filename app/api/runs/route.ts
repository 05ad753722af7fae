import { runListFilterSchema } from "@/lib/db/runs";
import { requireCaller } from "@/lib/http/caller";
import { handle } from "@/lib/http/handle";
import { listRuns } from "@/lib/runs/service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The caller's runs, newest first (`?workflowId=&status=&limit=&cursor=`). */
export async function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const filter = runListFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    return Response.json(await listRuns(caller.workspaceId, filter));
  });
}
