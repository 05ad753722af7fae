import { getDataset } from "@/lib/evals/datasets";
import { rowsToCsv, rowsToJsonl } from "@/lib/evals/export";
import { requireCaller } from "@/lib/http/caller";
import { handle } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One of the caller's datasets as a file (`?format=csv|jsonl`, `&version=n`; default CSV of the current version). */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const params = new URL(request.url).searchParams;
    const version = Number(params.get("version"));
    const dataset = await getDataset(
      caller.workspaceId,
      (await context.params).id,
      Number.isInteger(version) && version > 0 ? version : undefined,
    );
    const jsonl = params.get("format") === "jsonl";
    const file = `${dataset.name.replace(/[^\w.-]+/g, "_").slice(0, 60) || "dataset"}-v${dataset.version}.${jsonl ? "jsonl" : "csv"}`;
    return new Response(jsonl ? rowsToJsonl(dataset.rows) : rowsToCsv(dataset.rows), {
      headers: {
        "content-type": jsonl ? "application/x-ndjson; charset=utf-8" : "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${file}"`,
      },
    });
  });
}
