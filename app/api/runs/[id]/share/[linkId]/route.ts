import { revokeShareLink } from "@/lib/db/share-links";
import { notFound } from "@/lib/errors";
import { handle, requireMutationCaller } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Revokes one of the caller's share links; open viewers stop within seconds (S4). */
export async function DELETE(
  request: Request,
  context: { params: Promise<{ id: string; linkId: string }> },
): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    if (!(await revokeShareLink(caller.userId, (await context.params).linkId))) throw notFound("Link not found");
    return new Response(null, { status: 204 });
  });
}
