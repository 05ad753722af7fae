import { handle, jsonBody, requireMutationCaller } from "@/lib/http/handle";
import { forkRun, forkSchema } from "@/lib/runs/derive";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Fork from a step: body `{nodeId, iteration?, output?, branch?, version?}` → 201 `{run, dispatched,
 * reuse}`. A new run linked to this one reuses the results up to that step, gives the step the edited
 * output (forking at the start step: the edited inputs) and runs what depends on it. 400 for an
 * output past the run value limits or not matching the inputs, or an unknown outcome; 409 for a step
 * that has not ended.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const body = await jsonBody(request, forkSchema);
    const derived = await forkRun(caller.workspaceId, (await context.params).id, body);
    return Response.json(
      {
        run: { id: derived.run.id, status: derived.run.status, sourceRunId: derived.run.sourceRunId },
        dispatched: derived.dispatched,
        reuse: derived.reuse,
      },
      { status: 201, headers: { Location: `/api/runs/${derived.run.id}` } },
    );
  });
}
