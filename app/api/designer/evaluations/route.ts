import * as z from "zod";
import { getProviderSecret } from "@/lib/db/providers";
import { listEvaluations, runningEvaluation } from "@/lib/designer/evaluation-store";
import { startEvaluation } from "@/lib/designer/evaluation-run";
import { STRUCTURED_PATHS } from "@/lib/llm/json-call";
import { modelLabel } from "@/lib/llm/models";
import { AppError, notFound } from "@/lib/errors";
import { rateLimiter } from "@/lib/limits/rate-limit";
import { requireCaller } from "@/lib/http/caller";
import { handle, jsonBody, requireMutationCaller } from "@/lib/http/handle";
import { designerModelConfig } from "../setup";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Evaluations started per user per hour (each runs the whole corpus: ~50 model calls). */
const EVALUATION_RULE = { name: "designer-evaluation", max: 6, windowMs: 3_600_000 };

const bodySchema = z.object({
  /** A provider of the caller's; null or absent = the designer's own model (Settings → Designer model, else the default chain). */
  providerId: z.string().min(1).max(100).nullable().optional(),
  /** Model name; default the provider's default model. */
  model: z.string().trim().min(1).max(200).optional(),
  /** "auto" (default): the provider's path, found and remembered; or one structured-output path. */
  path: z.enum(["auto", ...STRUCTURED_PATHS]).default("auto"),
});

/** The endpoint an evaluation calls: one of the caller's providers, or the designer's model. */
async function target(userId: string, body: z.infer<typeof bodySchema>) {
  if (body.providerId) {
    const p = await getProviderSecret(userId, body.providerId);
    if (!p) throw notFound("Provider not found");
    const config = {
      baseURL: p.baseUrl,
      model: body.model ?? p.defaultModel,
      ...(p.apiKey ? { apiKey: p.apiKey } : {}),
    };
    return { config, label: `${p.name} · ${modelLabel(config)}`, providerId: p.id, path: body.path };
  }
  const base = await designerModelConfig(userId);
  const config = body.model ? { ...base, model: body.model } : base;
  return { config, label: `Designer model · ${modelLabel(config)}`, providerId: null, path: body.path };
}

/**
 * Starts "evaluate the designer with this provider": the corpus runs through the designer on the
 * chosen provider in the background (one evaluation at a time per user, 409 otherwise); answers 202
 * with the stored evaluation, which GET /api/designer/evaluations/:id shows as it fills in.
 */
export async function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const body = await jsonBody(request, bodySchema);
    if (await runningEvaluation(caller.workspaceId))
      throw new AppError("conflict", "An evaluation is already running; wait for it to finish.");
    const decision = await rateLimiter().hit(EVALUATION_RULE, caller.userId);
    if (!decision.allowed) {
      throw new AppError(
        "rate_limited",
        `At most ${EVALUATION_RULE.max} evaluations an hour. Try again in ${decision.retryAfterSeconds} s.`,
        undefined,
        decision.retryAfterSeconds,
      );
    }
    const { evaluation } = await startEvaluation(caller.workspaceId, await target(caller.workspaceId, body), {
      source: "ui",
    });
    return Response.json({ evaluation }, { status: 202 });
  });
}

/** The caller's evaluations, newest first. */
export async function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const caller = await requireCaller(request);
    return Response.json({ evaluations: await listEvaluations(caller.workspaceId) });
  });
}
