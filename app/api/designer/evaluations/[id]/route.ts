import { getEvaluation } from "@/lib/designer/evaluation-store";
import { notFound } from "@/lib/errors";
import { requireCaller } from "@/lib/http/caller";
import { handle } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One of the caller's evaluations with its rows so far; 404 for anyone else's. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const evaluation = await getEvaluation(caller.workspaceId, (await context.params).id);
    if (!evaluation) throw notFound("Evaluation not found");
    return Response.json({ evaluation });
  });
}
