import { requireCaller } from "@/lib/runs/auth-context";
import { handle, jsonBody, requireMutationCaller } from "@/lib/runs/http";
import { listRuns, startRun, startRunSchema } from "@/lib/runs/service";
import { runListFilterSchema } from "@/lib/db/runs";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** Starts a run of the workflow: body `{inputs, version?}` → 201 `{run, dispatched}`. */
export async function POST(request: Request, context: Context): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const body = await jsonBody(request, startRunSchema);
    // a signed-in browser calling the API is still the API; a token names the script
    const started = await startRun(caller.userId, (await context.params).id, body, { trigger: "api", label: caller.via === "token" ? `token ${caller.tokenName}` : null });
    return Response.json(started, { status: 201, headers: { Location: `/api/runs/${started.run.id}` } });
  });
}

/** The workflow's runs, newest first (`?status=&limit=&cursor=`). */
export async function GET(request: Request, context: Context): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const query = Object.fromEntries(new URL(request.url).searchParams);
    const filter = runListFilterSchema.parse({ ...query, workflowId: (await context.params).id });
    return Response.json(await listRuns(caller.userId, filter));
  });
}
