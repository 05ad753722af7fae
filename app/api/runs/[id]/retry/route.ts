import { handle, jsonBody, requireMutationCaller } from "@/lib/http/handle";
import { retryRun, retrySchema } from "@/lib/runs/derive";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Retry from the failed step: body `{version?: "original" | "current"}` → 201 `{run, dispatched,
 * reuse: {reusable, changedNodes, runsFrom}}`. A new run linked to this one reuses every step result
 * that still holds (no model call, no side effect again) and runs from the failed steps on; 409 for
 * a run that did not fail, was not cancelled and did not run out of a budget.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const body = await jsonBody(request, retrySchema);
    const derived = await retryRun(caller.workspaceId, (await context.params).id, body);
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
