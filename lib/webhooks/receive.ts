import "server-only";
import { recordWebhookCall, webhookBySecret } from "@/lib/db/webhooks";
import { AppError, notFound } from "@/lib/errors";
import { decodeUtf8Strict } from "@/lib/http/json-guard";
import { readLimitedBody } from "@/lib/http/limited-body";
import { handle, idempotencyKeyOf } from "@/lib/http/handle";
import { getRun, startRun } from "@/lib/runs/service";
import { MAX_WAIT_SECONDS, waitForRunEnd, waitSeconds } from "@/lib/runs/wait";
import { isTerminalRunStatus } from "@/lib/engine/events";
import { checkVersion } from "@/lib/workflow/checked-versions";
import { createLogger } from "@/lib/logger";
import { webhookInputs } from "./body";

const log = createLogger({ component: "webhooks" });

/** Largest body a webhook call may send: room for a big event (GitHub's push events stay well under it), not for uploads. */
export const WEBHOOK_MAX_BODY_BYTES = 512 * 1024;

export const WEBHOOK_NO_SAVED_VERSION =
  "The workflow has no saved version: webhooks run the newest saved version, so save one in the editor.";

/** What a call that started a run answers: 202 while it runs, 200 with its outputs when `?wait=` saw it end. */
export interface WebhookAccepted {
  runId: string;
  status: string;
  /** False when Redis was unreachable: the run is saved and the worker's reconciler starts it. */
  dispatched: boolean;
  /** Only when the run ended while the call waited. */
  outputs?: unknown;
  reason?: string | null;
  /** True when the call's Idempotency-Key had started this run already (nothing new started). */
  replayed?: boolean;
}

/**
 * One call of a webhook's secret URL: starts a run of its workflow's newest saved version with the
 * inputs the body gives (lib/webhooks/body.ts), through startRun, so the same input validation and
 * per-user run limit apply as everywhere. 202 with the run's id, or with `?wait=N` (seconds, at most
 * MAX_WAIT_SECONDS) 200 with its status and outputs when it ends within N; 404 for an unknown secret; 409
 * paused or nothing saved yet; 413 a body over WEBHOOK_MAX_BODY_BYTES; 400 a body or inputs that do
 * not fit (with startRun's details); 429 over the run limit (Retry-After). An `Idempotency-Key`
 * header that already started a run through this webhook answers that run (`replayed: true`), so a
 * sender's retry after a timeout starts nothing twice. Every answer about a
 * known webhook is recorded on it (last call, its run or its error), for its owner to see.
 */
export async function receiveWebhook(secret: string, request: Request): Promise<Response> {
  const res = await handle(async () => {
    const wait = waitSeconds(request.url);
    if (wait === null)
      throw new AppError("bad_request", `wait must be a whole number of seconds (at most ${MAX_WAIT_SECONDS}).`);
    const key = idempotencyKeyOf(request);
    const hook = await webhookBySecret(secret);
    if (!hook) throw notFound("No webhook at this address.");
    if (!hook.enabled)
      throw new AppError("conflict", "This webhook is paused; its owner can resume it on the workflow's page.");
    // the call log is for the owner's eyes: failing to write it must not change the sender's answer
    // (a 500 after a started run would make the sender retry and start it twice)
    const note = (call: Parameters<typeof recordWebhookCall>[1]) =>
      recordWebhookCall(hook.id, call).catch((err: unknown) =>
        log.warn("webhook call not recorded", { webhookId: hook.id, err }),
      );
    const refuse = async (err: AppError): Promise<never> => {
      await note({ status: err.status, error: err.message });
      throw err;
    };
    const bytes = await readLimitedBody(request, WEBHOOK_MAX_BODY_BYTES);
    if (!bytes)
      return refuse(new AppError("too_large", `The body is larger than ${WEBHOOK_MAX_BODY_BYTES / 1024} KB.`));
    if (!hook.latest) return refuse(new AppError("conflict", WEBHOOK_NO_SAVED_VERSION));
    const checked = checkVersion(hook.latest.id, hook.latest.document);
    if (!checked.ok)
      return refuse(new AppError("invalid_workflow", "The workflow's newest saved version does not parse."));
    let text: string;
    try {
      text = decodeUtf8Strict(bytes);
    } catch (err) {
      return refuse(err as AppError);
    }
    const body = { contentType: request.headers.get("content-type"), text };
    const mapped = webhookInputs(checked.workflow.inputs, hook.inputMode, hook.payloadField, body);
    if (!mapped.ok) return refuse(new AppError("bad_request", mapped.message));
    try {
      const { run, dispatched, replayed } = await startRun(
        hook.workspaceId,
        hook.workflowId,
        { inputs: mapped.inputs, version: hook.latest.version },
        {
          trigger: "webhook",
          label: hook.name,
          ...(key ? { idempotencyKey: `webhook:${hook.id}:${key}` } : {}),
        },
      );
      const again = replayed ? { replayed: true } : {};
      const replayHeaders = replayed ? { "Idempotent-Replayed": "true" } : undefined;
      const status = wait > 0 ? await waitForRunEnd(run.id, { timeoutMs: wait * 1000, signal: request.signal }) : null;
      if (status && isTerminalRunStatus(status)) {
        const ended = await getRun(hook.workspaceId, run.id);
        const done: WebhookAccepted = {
          runId: run.id,
          status: ended.status,
          dispatched,
          outputs: ended.outputs,
          reason: ended.reason,
          ...again,
        };
        await note({ status: 200, runId: run.id });
        return Response.json(done, { status: 200, headers: replayHeaders });
      }
      const accepted: WebhookAccepted = { runId: run.id, status: status ?? run.status, dispatched, ...again };
      await note({ status: 202, runId: run.id });
      return Response.json(accepted, { status: 202, headers: replayHeaders });
    } catch (err) {
      if (err instanceof AppError && err.code !== "internal") return refuse(err);
      throw err;
    }
  });
  res.headers.set("Cache-Control", "no-store");
  return res;
}
