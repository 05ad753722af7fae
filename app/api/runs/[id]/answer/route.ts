import { db } from "@/lib/db/client";
import { answerSchema, answerStep } from "@/lib/runs/answers";
import { handle, jsonBody, requireMutationCaller } from "@/lib/http/handle";
import { getRun } from "@/lib/runs/service";
import { recordAudit } from "@/lib/db/audit";
import { actorOf } from "@/lib/http/caller";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Answers one of the caller's waiting human reviews; body `{nodeId, iteration?, choice, values?, comment?}`.
 * 400 when the choice or values do not fit the review, 409 when it is not waiting (answered, or the run ended).
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const body = await jsonBody(request, answerSchema);
    const runId = (await context.params).id;
    const user = await db().user.findUnique({ where: { id: caller.userId }, select: { name: true, email: true } });
    const by = user?.name || user?.email || "a user";
    const answered = await answerStep(
      caller.workspaceId,
      runId,
      body,
      caller.via === "token" ? `${by} (token ${caller.tokenName})` : by,
    );
    await recordAudit(
      actorOf(caller),
      "run.answered",
      { type: "run", id: runId },
      { nodeId: body.nodeId, choice: body.choice },
    );
    return Response.json({ answered, run: await getRun(caller.workspaceId, runId) });
  });
}
