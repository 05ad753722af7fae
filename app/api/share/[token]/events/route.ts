import { handleShare, sharedEventsResponse } from "@/lib/run-views/share";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Live events of a shared run (SSE, allow-listed); closes within seconds of the link's revocation or expiry. */
export async function GET(request: Request, context: { params: Promise<{ token: string }> }): Promise<Response> {
  return handleShare(request, async () => sharedEventsResponse(request, (await context.params).token));
}
