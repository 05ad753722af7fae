import { handle } from "@/lib/http/handle";
import { runEventsResponse } from "@/lib/http/run-events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Live event stream of one of the caller's runs (SSE): replay after Last-Event-ID, then tail. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => runEventsResponse(request, (await context.params).id));
}
