import "server-only";
import { deliveryToSend, recordDeliveryAttempt, type DeliveryToSend } from "@/lib/db/deliveries";
import { notifierTarget } from "@/lib/db/notifiers";
import { env } from "@/lib/env";
import { sendSigned } from "./send";

/** The event name of a run's end (X-Weft-Event and the body's `event`). */
export const RUN_FINISHED_EVENT = "run.finished";
/** The event name of a run that waits for a human review. */
export const RUN_WAITING_EVENT = "run.waiting";

/** What one try of a delivery did; `retry` asks the queue for another try (with backoff). */
export type DeliveryOutcome =
  | { kind: "delivered"; responseStatus: number }
  | { kind: "retry"; error: string }
  | { kind: "failed"; error: string }
  | { kind: "skipped"; why: string };

/** Largest body sent: outputs that would make it larger are left out (`outputsOmitted`), for the receiver to read over the API. */
export const MAX_NOTIFICATION_BYTES = 256 * 1024;

/** The JSON a notifier receives for a run's end (documented in the README; a link when AUTH_URL is set). */
export function runFinishedBody(
  deliveryId: string,
  run: NonNullable<DeliveryToSend["run"]>,
  publicUrl = env().AUTH_URL,
): string {
  const full = JSON.stringify({ event: RUN_FINISHED_EVENT, deliveryId, run: runOf(run, publicUrl, "full") });
  return Buffer.byteLength(full) <= MAX_NOTIFICATION_BYTES
    ? full
    : JSON.stringify({ event: RUN_FINISHED_EVENT, deliveryId, run: runOf(run, publicUrl, "omitted") });
}

/**
 * The JSON of a run.waiting notification: the run (as for its end, without outputs) and the reviews
 * waiting, each with its question (prompt, choices, fields) and the API route that answers it.
 */
export function runWaitingBody(
  deliveryId: string,
  run: NonNullable<DeliveryToSend["run"]>,
  reviews: DeliveryToSend["reviews"],
  publicUrl = env().AUTH_URL,
): string {
  const answer = `/api/runs/${run.id}/answer`;
  return JSON.stringify({
    event: RUN_WAITING_EVENT,
    deliveryId,
    run: runOf(run, publicUrl, "none"),
    reviews: reviews.map((r) => ({ nodeId: r.nodeId, iteration: r.iteration, ...questionOf(r.request), answer })),
  });
}

/** Longest prompt a run.waiting body carries (a prompt may quote long outputs): the run's page has it whole. */
export const MAX_REVIEW_PROMPT_CHARS = 16_000;

function questionOf(request: unknown): Record<string, unknown> {
  if (!request || typeof request !== "object") return {};
  const q = request as Record<string, unknown>;
  const prompt =
    typeof q.prompt === "string" && q.prompt.length > MAX_REVIEW_PROMPT_CHARS
      ? `${q.prompt.slice(0, MAX_REVIEW_PROMPT_CHARS)}…`
      : q.prompt;
  return { ...q, prompt };
}

function runOf(
  run: NonNullable<DeliveryToSend["run"]>,
  publicUrl: string | undefined,
  outputs: "full" | "omitted" | "none",
): Record<string, unknown> {
  return {
    id: run.id,
    status: run.status,
    reason: run.reason,
    ...(outputs === "full"
      ? { outputs: run.outputs }
      : outputs === "omitted"
        ? { outputs: null, outputsOmitted: true }
        : {}),
    trigger: run.trigger,
    workflow: { id: run.workflowId, name: run.workflowName, version: run.version },
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    ...(publicUrl ? { url: `${publicUrl.replace(/\/$/, "")}/runs/${run.id}` } : {}),
  };
}

/**
 * One try of one delivery (the notifications queue's job): a delivery no longer pending, or whose
 * notifier was deleted, is skipped; a paused notifier's is failed ("paused"); otherwise the run's end
 * is POSTed, signed. A 2xx records it delivered; a 5xx, 408, 425, 429, timeout or network error is
 * recorded and retried unless `finalTry`; any other answer, or a URL the SSRF guard refuses, fails it
 * at once (trying again would not change the answer).
 */
export async function deliverNotification(deliveryId: string, finalTry: boolean): Promise<DeliveryOutcome> {
  const d = await deliveryToSend(deliveryId);
  if (!d) return { kind: "skipped", why: "no such delivery" };
  if (d.status !== "pending") return { kind: "skipped", why: `already ${d.status}` };
  const target = await notifierTarget(d.notifierId);
  if (!target) return { kind: "skipped", why: "notifier deleted" };
  if (!target.enabled || !d.run) {
    const error = !target.enabled
      ? "Not sent: the notification URL was paused."
      : "Not sent: the run no longer exists.";
    await recordDeliveryAttempt(d.id, { status: "failed", error });
    return { kind: "failed", error };
  }
  const waiting = d.event === RUN_WAITING_EVENT;
  const body = waiting ? runWaitingBody(d.id, d.run, d.reviews) : runFinishedBody(d.id, d.run);
  const sent = await sendSigned(
    target.url,
    target.secret,
    waiting ? RUN_WAITING_EVENT : RUN_FINISHED_EVENT,
    d.id,
    body,
  );
  if (sent.kind === "delivered") {
    await recordDeliveryAttempt(d.id, { status: "delivered", responseStatus: sent.responseStatus });
    return { kind: "delivered", responseStatus: sent.responseStatus };
  }
  const again = sent.kind === "retry" && !finalTry;
  await recordDeliveryAttempt(d.id, {
    status: again ? "pending" : "failed",
    responseStatus: sent.responseStatus,
    error: sent.error,
  });
  return again ? { kind: "retry", error: sent.error } : { kind: "failed", error: sent.error };
}
