import { listWorkflowApiViews } from "@/lib/db/workflows";
import { requireCaller } from "@/lib/http/caller";
import { handle } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The caller's workflows with their input fields, most recently updated first: `{workflows}`. */
export async function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    return Response.json({ workflows: await listWorkflowApiViews(caller.workspaceId) });
  });
}
