import * as z from "zod";
import { kbRejected } from "@/lib/kb/formats";
import { ingestDocument, listDocuments, maxUploadBytes } from "@/lib/kb/collections";
import { requireCaller } from "@/lib/http/caller";
import { handle, requireMutationCaller } from "@/lib/http/handle";
import { notFound } from "@/lib/errors";
import { readLimitedBody } from "@/lib/http/limited-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

const nameSchema = z.string().trim().min(1).max(255);
const idSchema = z.string().min(1).max(100);

/** Reads the body up to `limit` bytes; one byte more is a too_large refusal (the rest is not read). */
async function readLimited(request: Request, limit: number, name: string): Promise<Uint8Array> {
  const bytes = await readLimitedBody(request, limit);
  if (!bytes)
    throw kbRejected("too_large", `${name} is larger than the ${(limit / 1048576).toFixed(1)} MB upload limit.`);
  return bytes;
}

/**
 * Uploads ONE file into the collection. The body is the raw file bytes (Content-Type:
 * application/octet-stream); its name is the URL-encoded `X-Kb-Filename` header and its own MIME type
 * `X-Kb-Content-Type` (optional). A custom header forces a CORS preflight, so no cross-site form can
 * post here. → 201 `{document, duplicate}` (200 when the same bytes were already there);
 * 400 `{error:{details:{reason: unsupported|too_large|corrupt|empty}}}`; 404 unknown collection;
 * 409 collection embedded with another model.
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const id = idSchema.parse((await context.params).id);
    let rawName = "";
    try {
      rawName = decodeURIComponent(request.headers.get("x-kb-filename") ?? "");
    } catch {
      rawName = "";
    }
    const name = nameSchema.safeParse(rawName);
    if (!name.success) throw kbRejected("unsupported", "The upload has no file name (X-Kb-Filename header).");
    const bytes = await readLimited(request, maxUploadBytes(), name.data);
    const mimeType = request.headers.get("x-kb-content-type") ?? undefined;
    const result = await ingestDocument(caller.workspaceId, id, {
      name: name.data,
      bytes,
      mimeType: mimeType?.slice(0, 200),
    });
    return Response.json(result, { status: result.duplicate ? 200 : 201 });
  });
}

/** The collection's documents, newest first. */
export async function GET(request: Request, context: Context): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const docs = await listDocuments(caller.workspaceId, idSchema.parse((await context.params).id));
    if (!docs) throw notFound("Collection not found");
    return Response.json({ documents: docs });
  });
}
