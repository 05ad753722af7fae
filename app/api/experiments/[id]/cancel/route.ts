import { cancelExperiment } from "@/lib/evals/experiments";
import { getExperiment } from "@/lib/evals/results";
import { handle, requireMutationCaller } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Cancels one of the caller's experiments (idempotent): rows not started are cancelled, runs going are cancelled, finished rows stay scored. */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const id = (await context.params).id;
    await cancelExperiment(caller.workspaceId, id);
    const { rows: _rows, ...experiment } = await getExperiment(caller.workspaceId, id);
    return Response.json({ experiment });
  });
}
