import * as z from "zod";
import { requireCaller } from "@/lib/http/caller";
import { handle } from "@/lib/http/handle";
import { AppError } from "@/lib/errors";
import { listModels } from "@/lib/providers/models";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const idSchema = z.string().min(1).max(200);

/**
 * The models a provider offers, for the model picker: `default` = the caller's default provider
 * (what an agent without a model uses), else one of their providers by id or name (anyone else's:
 * 404). Kept 10 minutes; `?refresh=1` asks the provider again. An endpoint that cannot be listed
 * answers 502 with what went wrong, by status only.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    const id = idSchema.safeParse((await context.params).id);
    if (!id.success) throw new AppError("bad_request", "Unknown provider.");
    const refresh = new URL(request.url).searchParams.get("refresh") === "1";
    const list = await listModels(caller.workspaceId, id.data === "default" ? null : id.data, { refresh }).catch(
      (err: unknown) => {
        // the resolver's "no model provider named …" (a config error): not the caller's provider
        if (err instanceof Error && /No model provider|no longer exists/.test(err.message))
          throw new AppError("not_found", "Provider not found.");
        throw err;
      },
    );
    if (!list.ok)
      return Response.json({ error: { code: "bad_gateway", message: list.message, details: null } }, { status: 502 });
    return Response.json({ models: list.models, defaultModel: list.defaultModel, cached: list.cached });
  });
}
