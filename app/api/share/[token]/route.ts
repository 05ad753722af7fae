import { notFound } from "@/lib/errors";
import { getSharedRun, handleShare } from "@/lib/run-views/share";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ token: string }> };

/** The allow-listed, read-only view of a shared run (no account needed); 404 for unknown, revoked or expired links. */
export async function GET(request: Request, context: Ctx): Promise<Response> {
  return handleShare(request, async () => {
    const shared = await getSharedRun((await context.params).token);
    if (!shared) throw notFound("Link not found");
    return Response.json(shared);
  });
}

const readOnly = (request: Request): Promise<Response> =>
  handleShare(request, async () =>
    Response.json(
      { error: { code: "method_not_allowed", message: "Share links are read-only.", details: null } },
      { status: 405, headers: { Allow: "GET" } },
    ),
  );

/** Share links are read-only: every mutation is refused (W2). */
export const POST = readOnly;
export const PUT = readOnly;
export const PATCH = readOnly;
export const DELETE = readOnly;
