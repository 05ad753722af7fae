import { requireCaller } from "@/lib/http/caller";
import { handle } from "@/lib/http/handle";
import { getRun } from "@/lib/runs/service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One of the caller's runs with its steps; 404 for anyone else's. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    return Response.json({ run: await getRun(caller.workspaceId, (await context.params).id) });
  });
}
