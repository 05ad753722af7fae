import { importRows } from "@/lib/evals/datasets";
import { IMPORT_BYTES_MAX } from "@/lib/evals/import";
import { AppError } from "@/lib/errors";
import { handle, requireMutationCaller } from "@/lib/http/handle";
import { readLimitedBody } from "@/lib/http/limited-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Imports rows into one of the caller's datasets as its next version: a `text/csv` or
 * `application/x-ndjson` (JSONL) body of at most 5 MB → 201 `{version, added}`. All or nothing: a
 * file with bad rows answers 400 with every bad row in `details.errors` and stores none.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const format =
      type === "text/csv" ? "csv" : type === "application/x-ndjson" || type === "application/jsonl" ? "jsonl" : null;
    if (!format) throw new AppError("unsupported_media_type", "Send the rows as text/csv or application/x-ndjson.");
    const body = await readLimitedBody(request, IMPORT_BYTES_MAX);
    if (!body) throw new AppError("too_large", `The file is over ${IMPORT_BYTES_MAX} bytes.`);
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      throw new AppError("bad_request", "The file is not UTF-8.");
    }
    const result = await importRows(caller.workspaceId, (await context.params).id, format, text);
    return Response.json(result, { status: 201 });
  });
}
