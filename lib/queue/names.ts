import "server-only";
import { env } from "@/lib/env";

/** The queue that carries one job per run dispatch (start, resume, crash recovery). */
export const RUNS_QUEUE = "runs";

/**
 * Redis key prefix for BullMQ keys and pub/sub channels (env WEFT_QUEUE_PREFIX, default "weft").
 * Read from process.env each call so a test file can set a fresh prefix before it starts.
 */
export function queuePrefix(): string {
  return process.env.WEFT_QUEUE_PREFIX || env().WEFT_QUEUE_PREFIX;
}

/** BullMQ deduplication id of a run: at most one waiting and one active job per run. */
export const runDedupId = (runId: string): string => `run:${runId}`;

/** Pub/sub channel that wakes a run's live viewers (payload is a hint only; readers go to PostgreSQL). */
export const runEventsChannel = (runId: string, prefix = queuePrefix()): string => `${prefix}:run-events:${runId}`;

/** Pub/sub channel of a run's live text frames (ephemeral tokens of its running steps, lib/events/live-text-writer.ts). */
export const runLiveChannel = (runId: string, prefix = queuePrefix()): string => `${prefix}:run-live:${runId}`;

/** Hash of a run's live text so far: one field per running step (its key), the text written so far. */
export const runLiveKey = (runId: string, prefix = queuePrefix()): string => `${prefix}:run-live-text:${runId}`;

/** Pub/sub channel that tells the worker holding a run to look at it now (e.g. cancel requested). */
export const runControlChannel = (prefix = queuePrefix()): string => `${prefix}:run-control`;
