import * as z from "zod";
import { DESIGNER_MODEL_HEADER, DESIGNER_OFFLINE_HEADER } from "@/components/designer/stream";
import { getWorkflow } from "@/lib/db/workflows";
import type { DesignerEvent } from "@/lib/designer/events";
import { design } from "@/lib/designer/pipeline";
import { AppError, notFound } from "@/lib/errors";
import { createLogger } from "@/lib/logger";
import { rateLimiter } from "@/lib/limits/rate-limit";
import { isScriptedModel } from "@/lib/llm/models";
import { handle, jsonBody, requireMutationCaller } from "@/lib/http/handle";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";
import { dryRunner } from "./dry-run";
import { designerModelName, designerOptions } from "./setup";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const log = createLogger({ component: "designer-api" });

/** Designer requests per user per minute (each is one to four model calls). */
const DESIGNER_RULE = { name: "designer", max: 20, windowMs: 60_000 };

const bodySchema = z.object({
  /** What the user typed. */
  message: z.string().trim().min(1, "Describe what you want.").max(4000),
  /** The workflow being edited (checked to be the caller's). */
  workflowId: z.string().min(1).max(100).optional(),
  /** The current graph for an edit (validated as a workflow document); absent = a new design. */
  workflow: z.unknown().optional(),
  /**
   * Run the proposal once on the model's sample inputs before showing it: true = always (tools with
   * side effects skipped), false = never; absent = when its tools have no side effects.
   */
  dryRun: z.boolean().optional(),
});

const NDJSON_HEADERS = {
  "Content-Type": "application/x-ndjson; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
} as const;

/**
 * Runs the chat designer on one request and streams its events as NDJSON (one DesignerEvent per
 * line; the last is `done` or `failed`). Nothing is saved: the editor shows the proposal as a diff.
 * Closing the request (the panel's Cancel) aborts the pipeline and its model call.
 */
export async function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const caller = await requireMutationCaller(request);
    const decision = await rateLimiter().hit(DESIGNER_RULE, caller.userId);
    if (!decision.allowed) {
      throw new AppError(
        "rate_limited",
        `Too many designer requests: at most ${DESIGNER_RULE.max} per minute. Try again in ${decision.retryAfterSeconds} s.`,
        undefined,
        decision.retryAfterSeconds,
      );
    }
    const body = await jsonBody(request, bodySchema);
    let base: Workflow | undefined;
    if (body.workflow !== undefined) {
      const parsed = workflowSchema.safeParse(body.workflow);
      if (!parsed.success)
        throw new AppError(
          "bad_request",
          "The current workflow is not a valid workflow document.",
          z.treeifyError(parsed.error),
        );
      base = parsed.data;
    }
    if (body.workflowId && !(await getWorkflow(caller.workspaceId, body.workflowId)))
      throw notFound("Workflow not found");

    const { options, config } = await designerOptions(caller.workspaceId, {
      message: body.message,
      workflowId: body.workflowId,
      workflow: base,
    });
    const abort = new AbortController();
    request.signal.addEventListener("abort", () => abort.abort(), { once: true });
    const events = design(
      { message: body.message, ...(base ? { workflow: base } : {}) },
      {
        ...options,
        signal: abort.signal,
        streamSummary: true,
        ...(body.dryRun !== false
          ? { dryRun: dryRunner(caller.workspaceId), dryRunPolicy: body.dryRun ? "always" : "auto" }
          : {}),
      },
    );
    const started = Date.now();
    const context = {
      userId: caller.userId,
      workspaceId: caller.workspaceId,
      workflowId: body.workflowId,
      mode: base ? "edit" : "new",
      model: designerModelName(config),
    };
    log.info("designer request", context);

    const encoder = new TextEncoder();
    const line = (e: DesignerEvent) => encoder.encode(`${JSON.stringify(e)}\n`);
    let closed = false;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await events.next();
          if (closed) return; // cancelled while the step ran: nobody reads any more
          if (next.done) return controller.close();
          controller.enqueue(line(next.value));
          if (next.value.type === "done" || next.value.type === "failed") {
            const usage = next.value.type === "done" ? next.value.result.usage : next.value.usage;
            log.info("designer finished", {
              ...context,
              outcome: next.value.type === "done" ? "done" : next.value.reason,
              ms: Date.now() - started,
              ...usage,
            });
          }
        } catch (err) {
          if (closed) return;
          log.error("designer pipeline crashed", { ...context, err });
          controller.enqueue(
            line({
              type: "failed",
              reason: "model_error",
              message: "The designer failed unexpectedly.",
              issues: [],
              usage: { calls: 0, promptTokens: 0, completionTokens: 0 },
            }),
          );
          controller.close();
        }
      },
      cancel() {
        closed = true;
        abort.abort();
        log.info("designer cancelled by the client", context);
      },
    });
    // which model designs: the panel tells the user when it is the offline demo's scripted model
    const modelHeaders = {
      [DESIGNER_MODEL_HEADER]: encodeURIComponent(context.model),
      ...(isScriptedModel(config) ? { [DESIGNER_OFFLINE_HEADER]: "1" } : {}),
    };
    return new Response(stream, { status: 200, headers: { ...NDJSON_HEADERS, ...modelHeaders } });
  });
}
