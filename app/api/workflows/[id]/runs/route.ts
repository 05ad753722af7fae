import { actorOf, requireCaller } from "@/lib/http/caller";
import { recordAudit } from "@/lib/db/audit";
import { handle, idempotencyKeyOf, jsonBody, requireMutationCaller } from "@/lib/http/handle";
import { getRun, listRuns, startRun, startRunSchema } from "@/lib/runs/service";
import { MAX_WAIT_SECONDS, waitForRunEnd, waitSeconds } from "@/lib/runs/wait";
import { AppError, notFound } from "@/lib/errors";
import { isWorkflowOf } from "@/lib/db/workflows";
import { runListFilterSchema } from "@/lib/db/runs";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/**
 * Starts a run of the workflow: body `{inputs, version?}` → 201 `{run, dispatched}`. With `?wait=N`
 * (seconds, at most MAX_WAIT_SECONDS) it answers when the run ends or N seconds passed, whichever
 * comes first, with the run as it then is (its outputs once it succeeded). An `Idempotency-Key`
 * header that already started a run of this workflow answers that run (200, `replayed: true`).
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const wait = waitSeconds(request.url);
    if (wait === null)
      throw new AppError("bad_request", `wait must be a whole number of seconds (at most ${MAX_WAIT_SECONDS}).`);
    const key = idempotencyKeyOf(request);
    const body = await jsonBody(request, startRunSchema);
    const workflowId = (await context.params).id;
    // a signed-in browser calling the API is still the API; a token names the script
    const started = await startRun(caller.workspaceId, workflowId, body, {
      trigger: "api",
      label: caller.via === "token" ? `token ${caller.tokenName}` : null,
      ...(key ? { idempotencyKey: `api:${workflowId}:${key}` } : {}),
    });
    if (!started.replayed) await recordAudit(actorOf(caller), "run.started", { type: "run", id: started.run.id });
    if (wait > 0) {
      await waitForRunEnd(started.run.id, { timeoutMs: wait * 1000, signal: request.signal });
      started.run = await getRun(caller.workspaceId, started.run.id);
    }
    // a replay (the key started this run before) created nothing: 200, and the header says so
    const headers: Record<string, string> = {
      Location: `/api/runs/${started.run.id}`,
      ...(started.replayed ? { "Idempotent-Replayed": "true" } : {}),
    };
    return Response.json(started, { status: started.replayed ? 200 : 201, headers });
  });
}

/** The workflow's runs, newest first (`?status=&limit=&cursor=`); 404 for a workflow not in the caller's workspace. */
export async function GET(request: Request, context: Context): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const workflowId = (await context.params).id;
    if (!(await isWorkflowOf(caller.workspaceId, workflowId))) throw notFound("Workflow not found");
    const query = Object.fromEntries(new URL(request.url).searchParams);
    const filter = runListFilterSchema.parse({ ...query, workflowId });
    return Response.json(await listRuns(caller.workspaceId, filter));
  });
}
