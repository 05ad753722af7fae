import * as z from "zod";
import { refuseCrossSite } from "@/lib/http/same-origin";
import { AppError } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/json-guard";
import { ownerModelResolver } from "@/lib/providers/resolver";
import { toolCreationStream } from "./stream";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const bodySchema = z.object({ request: z.string().trim().min(10, "Describe the tool in a sentence or two").max(4000) });

/** The dialog's error shape: `{error: message}` with the status. */
const refusal = (status: number, message: string) =>
  Response.json({ error: message }, { status, headers: { "Cache-Control": "no-store" } });

/**
 * The "Create tool" dialog's stream: runs the creation loop (reuse check → write → sandbox tests →
 * fix, ≤ 3 rounds) with the user's default model and answers NDJSON, one CreateStreamEvent per line.
 * A passing tool is stored UNAPPROVED; the dialog shows code + test results and the owner approves.
 * Only the app's own pages may start it: a cross-site request (Origin / Sec-Fetch-Site of another
 * site, or a text/plain or form body) is refused before the session is read, so another site cannot
 * run the loop on a signed-in visitor's provider.
 */
export async function POST(request: Request): Promise<Response> {
  const crossSite = refuseCrossSite(request);
  if (crossSite) return refusal(403, "Cross-site request refused.");
  // the session module is loaded only for a request that passed the check
  const { requireCaller } = await import("@/lib/http/caller");
  let workspaceId: string;
  try {
    workspaceId = (await requireCaller(request)).workspaceId;
  } catch (err) {
    if (err instanceof AppError) return refusal(err.status, err.status === 401 ? "Sign in first." : err.message);
    throw err;
  }
  let raw: unknown;
  try {
    raw = await readJsonBody(request, { empty: null });
  } catch (err) {
    if (err instanceof AppError) return refusal(err.status, err.message);
    throw err;
  }
  const body = bodySchema.safeParse(raw);
  if (!body.success) return refusal(400, body.error.issues[0]?.message ?? "Invalid request");
  const stream = toolCreationStream({
    workspaceId,
    request: body.data.request,
    config: () => ownerModelResolver(workspaceId)(null),
    signal: request.signal,
  });
  return new Response(stream, {
    headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" },
  });
}
