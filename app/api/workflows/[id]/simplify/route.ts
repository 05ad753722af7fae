import * as z from "zod";
import { getWorkflow } from "@/lib/db/workflows";
import { AppError, notFound } from "@/lib/errors";
import { handle, jsonBody, requireMutationCaller } from "@/lib/http/handle";
import { rateLimiter } from "@/lib/limits/rate-limit";
import { workflowSchema } from "@/lib/workflow/schema";
import { simplify, simplifyBodySchema } from "./simplify";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** Evaluated simplify requests per user per minute (each runs the dataset once per proposal, plus the original). */
const SIMPLIFY_RULE = { name: "simplify", max: 6, windowMs: 60_000 };

/**
 * "Simplify this workflow": body `{workflow?, datasetId?, evaluators?, tolerance?}` → 200
 * `{proposals, evaluation}`. Each proposal merges nodes whose roles overlap, with its diff and the
 * expected saving; with a dataset, each was run against the original and is marked kept or
 * rejected. Nothing is stored: the editor offers the kept ones like the designer's proposals.
 */
export async function POST(request: Request, context: Context): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const body = await jsonBody(request, simplifyBodySchema);
    const id = (await context.params).id;
    const saved = await getWorkflow(caller.workspaceId, id);
    if (!saved) throw notFound("Workflow not found");
    let workflow = saved.document;
    if (body.workflow !== undefined) {
      const parsed = workflowSchema.safeParse(body.workflow);
      if (!parsed.success)
        throw new AppError(
          "bad_request",
          "The workflow is not a valid workflow document.",
          z.treeifyError(parsed.error),
        );
      workflow = parsed.data;
    }
    if (!workflow) throw new AppError("invalid_workflow", "The saved draft is not a valid workflow document.");
    // only an evaluation (runs on the dataset) counts toward the limit
    const beforeEvaluation = async () => {
      const decision = await rateLimiter().hit(SIMPLIFY_RULE, caller.userId);
      if (!decision.allowed)
        throw new AppError(
          "rate_limited",
          `Too many evaluated simplify requests: at most ${SIMPLIFY_RULE.max} per minute. Try again in ${decision.retryAfterSeconds} s.`,
          undefined,
          decision.retryAfterSeconds,
        );
    };
    return Response.json(
      await simplify(caller.workspaceId, id, workflow, body, { signal: request.signal, beforeEvaluation }),
    );
  });
}
