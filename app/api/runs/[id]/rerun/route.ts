import { rerun } from "@/lib/runs/service";
import { handle, requireMutationCaller } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Starts a new run of the same version with the same inputs, from scratch (retry from the failed step: ../retry). */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const started = await rerun(caller.workspaceId, (await context.params).id);
    return Response.json(
      { run: { id: started.run.id, status: started.run.status }, dispatched: started.dispatched },
      { status: 201 },
    );
  });
}
