import "server-only";
import * as z from "zod";
import { runEventEnvelopeSchema, type RunEventEnvelope } from "@/lib/engine/events";

/**
 * The wake-up message published on a run's channel AFTER its events were committed.
 * - `{"last":N,"events":[…]}`: the committed envelopes themselves (contiguous seq, ending at N), so a
 *   live viewer that already sent everything before them can send them without reading PostgreSQL;
 * - `{"last":N}` or a bare `N` (older publishers, large batches): "read again up to N".
 * Viewers fall back to PostgreSQL on any seq gap, so a lost, duplicated or reordered wake-up costs
 * latency, never a gap or a duplicate.
 */
export interface WakeMessage {
  /** Last seq committed when this was published; null = unknown (after a reconnect: re-read). */
  last: number | null;
  /** The committed envelopes, in seq order, when the publisher carried them. */
  events?: RunEventEnvelope[];
}

/** Above this many bytes of JSON a publisher sends only the hint (viewers read PostgreSQL instead). */
export const WAKE_PAYLOAD_MAX_BYTES = 64 * 1024;

const messageSchema = z.object({
  last: z.number().int().nonnegative(),
  events: z.array(runEventEnvelopeSchema).max(1_000).optional(),
});

/** Encodes a wake-up: the envelopes when they fit in WAKE_PAYLOAD_MAX_BYTES, else the hint alone. */
export function encodeWake(last: number, events: readonly RunEventEnvelope[] = []): string {
  if (events.length > 0) {
    const full = JSON.stringify({ last, events });
    if (full.length <= WAKE_PAYLOAD_MAX_BYTES) return full;
  }
  return JSON.stringify({ last });
}

/**
 * Parses a wake-up for `runId` (zod at the edge). Anything unreadable, or envelopes of another run,
 * degrades to `{ last: null }`: the viewer re-reads PostgreSQL.
 */
export function decodeWake(runId: string, raw: string): WakeMessage {
  const text = raw.trim();
  if (/^\d+$/.test(text)) return { last: Number(text) };
  try {
    const parsed = messageSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return { last: null };
    const events = parsed.data.events;
    if (events && !events.every((e) => e.runId === runId)) return { last: parsed.data.last };
    return events?.length ? { last: parsed.data.last, events } : { last: parsed.data.last };
  } catch {
    return { last: null };
  }
}
