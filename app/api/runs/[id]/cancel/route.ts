import * as z from "zod";
import { handle, jsonBody, requireMutationCaller } from "@/lib/http/handle";
import { cancelRun } from "@/lib/runs/service";
import { recordAudit } from "@/lib/db/audit";
import { actorOf } from "@/lib/http/caller";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const cancelSchema = z.object({ reason: z.string().trim().min(1).max(500).optional() });

/** Cancels one of the caller's runs (idempotent); body `{reason?}`. */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const { reason } = await jsonBody(request, cancelSchema);
    const run = await cancelRun(caller.workspaceId, (await context.params).id, reason);
    await recordAudit(actorOf(caller), "run.cancelled", { type: "run", id: run.id });
    return Response.json({ run });
  });
}
