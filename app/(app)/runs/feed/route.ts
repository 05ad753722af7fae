import { runListFilterSchema } from "@/lib/db/runs";
import { requireCaller } from "@/lib/http/caller";
import { listRunRows } from "@/lib/run-views/dashboard";
import { handle } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** JSON rows of the /runs page (polled every 2 s while runs are active): `?workflowId=&status=&limit=`. */
export async function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const filter = runListFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    return Response.json(await listRunRows(caller.workspaceId, filter), { headers: { "Cache-Control": "no-store" } });
  });
}
