import { getWorkflow, workflowApiView } from "@/lib/db/workflows";
import { notFound } from "@/lib/errors";
import { requireCaller } from "@/lib/http/caller";
import { handle } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** One of the caller's workflows with its input fields (404 for another user's, as for a missing one). */
export async function GET(request: Request, context: Context): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const workflow = await getWorkflow(caller.workspaceId, (await context.params).id);
    if (!workflow) throw notFound("Workflow not found");
    return Response.json(workflowApiView(workflow));
  });
}
