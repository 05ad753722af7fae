import { getExperiment } from "@/lib/evals/results";
import { requireCaller } from "@/lib/http/caller";
import { handle } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * One of the caller's experiments: status, progress, the aggregate per version (mean score with
 * its 95 % interval, pass rate, tokens, cost, median latency), regressions and every row's cells.
 * `?rows=0` leaves the rows out (a CI gate needs only the aggregates).
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const experiment = await getExperiment(caller.workspaceId, (await context.params).id);
    const rows = new URL(request.url).searchParams.get("rows") !== "0";
    return Response.json({ experiment: rows ? experiment : { ...experiment, rows: undefined } });
  });
}
