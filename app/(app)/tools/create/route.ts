import { z } from "zod";
import { currentUser } from "@/lib/auth/session";
import { ownerModelResolver } from "@/lib/providers/resolver";
import { toolCreationStream } from "./stream";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const bodySchema = z.object({ request: z.string().trim().min(10, "Describe the tool in a sentence or two").max(4000) });

/**
 * The "Create tool" dialog's stream: runs the creation loop (reuse check → write → sandbox tests →
 * fix, ≤ 3 rounds) with the user's default model and answers NDJSON, one CreateStreamEvent per line.
 * A passing tool is stored UNAPPROVED; the dialog shows code + test results and the owner approves.
 */
export async function POST(request: Request): Promise<Response> {
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const body = bodySchema.safeParse(await request.json().catch(() => null));
  if (!body.success) return Response.json({ error: body.error.issues[0]?.message ?? "Invalid request" }, { status: 400 });
  const stream = toolCreationStream({ ownerId: user.id, request: body.data.request, config: () => ownerModelResolver(user.id)(null), signal: request.signal });
  return new Response(stream, { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" } });
}
