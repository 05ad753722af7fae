import { revokeShareLink } from "@/lib/db/share-links";
import { notFound } from "@/lib/errors";
import { handle, requireMutationCaller } from "@/lib/http/handle";
import { recordAudit } from "@/lib/db/audit";
import { actorOf } from "@/lib/http/caller";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Revokes one of the caller's share links; open viewers stop within seconds (S4). */
export async function DELETE(
  request: Request,
  context: { params: Promise<{ id: string; linkId: string }> },
): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const { linkId } = await context.params;
    if (!(await revokeShareLink(caller.workspaceId, linkId))) throw notFound("Link not found");
    await recordAudit(actorOf(caller), "share.revoked", { type: "share_link", id: linkId });
    return new Response(null, { status: 204 });
  });
}
