import { createExperiment, experimentInputSchema } from "@/lib/evals/experiments";
import { listExperiments } from "@/lib/evals/results";
import { requireCaller } from "@/lib/http/caller";
import { handle, jsonBody, requireMutationCaller } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Starts an experiment: body `{datasetId, variants: [{workflowId, version}], evaluators: [...],
 * concurrency?, name?}` → 201 `{experiment: {id, cells}}`. Read its results at `Location`.
 */
export async function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const body = await jsonBody(request, experimentInputSchema);
    const started = await createExperiment(caller.workspaceId, body);
    return Response.json(
      { experiment: started },
      { status: 201, headers: { Location: `/api/experiments/${started.id}` } },
    );
  });
}

/** The caller's experiments, newest first (`?datasetId=` for one dataset's). */
export async function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const datasetId = new URL(request.url).searchParams.get("datasetId") ?? undefined;
    return Response.json({ experiments: await listExperiments(caller.workspaceId, datasetId) });
  });
}
