import { createShareLink, createShareSchema, listShareLinks } from "@/lib/db/share-links";
import { notFound } from "@/lib/errors";
import { isRunOwnedBy } from "@/lib/db/runs";
import { actorOf, requireCaller } from "@/lib/http/caller";
import { recordAudit } from "@/lib/db/audit";
import { handle, jsonBody, requireMutationCaller } from "@/lib/http/handle";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The caller's share links of one of their runs (never the tokens). */
export async function GET(request: Request, context: Ctx): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const runId = (await context.params).id;
    if (!(await isRunOwnedBy(caller.workspaceId, runId))) throw notFound("Run not found");
    return Response.json({ links: await listShareLinks(caller.workspaceId, runId) });
  });
}

/** Creates a share link `{expiresIn: "1h"|"1d"|"7d", includeContent}`; the token is returned once, in `url`. */
export async function POST(request: Request, context: Ctx): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const body = await jsonBody(request, createShareSchema);
    const created = await createShareLink(caller.workspaceId, (await context.params).id, body);
    if (!created) throw notFound("Run not found");
    await recordAudit(
      actorOf(caller),
      "share.created",
      { type: "share_link", id: created.link.id },
      {
        runId: (await context.params).id,
        includeContent: body.includeContent,
      },
    );
    const url = new URL(`/share/${created.token}`, request.url).toString();
    return Response.json(
      { link: created.link, token: created.token, url },
      { status: 201, headers: { "Cache-Control": "no-store" } },
    );
  });
}
