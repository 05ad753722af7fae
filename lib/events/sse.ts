import "server-only";
import { isTerminalRunStatus, runStatusSchema, type RunEventEnvelope } from "@/lib/engine/events";
import { createLogger } from "@/lib/logger";
import { runEventHub } from "./hub";
import { readEvents, runProgress } from "./store";

const log = createLogger({ component: "sse" });

/** Response headers of a run event stream (S2): no proxy buffering, no transformation, no caching. */
export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
} as const;

/** Default heartbeat (a `: ping` comment that keeps idle proxies from closing the stream), 15 s. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

export interface RunStreamOptions {
  runId: string;
  /** Send events with seq > afterSeq (from Last-Event-ID or ?after=; 0 = from the start). */
  afterSeq: number;
  /**
   * The request: the stream closes and releases everything when `request.signal` aborts. The
   * Request itself is kept referenced, because undici's Request.signal follows the client's signal
   * only while the Request object is alive (a collected Request silently stops propagating aborts).
   */
  request: Request;
  /** Heartbeat period, also the period of a safety re-read of PostgreSQL (default 15 s). */
  heartbeatMs?: number;
  /** Events read per query (default 500). */
  pageSize?: number;
  /** Share links (S4): re-checked every revalidateMs (default 2 s); false closes the stream. */
  revalidate?: () => Promise<boolean>;
  revalidateMs?: number;
  /** Share links (W2): maps an event to what the viewer may see, or null to send nothing. */
  transform?: (envelope: RunEventEnvelope) => RunEventEnvelope | null;
}

const counters = { open: 0, timers: 0 };

/** Open streams and live timers of this process; both return to baseline when streams close (S3). */
export const sseStats = (): { open: number; timers: number } => ({ ...counters });

const encoder = new TextEncoder();
const frame = (envelope: RunEventEnvelope): Uint8Array =>
  encoder.encode(`id: ${envelope.seq}\ndata: ${JSON.stringify(envelope)}\n\n`);

/**
 * A run's live event stream: subscribe to wake-ups FIRST, then replay from PostgreSQL after
 * `afterSeq`, then on every wake-up (and every heartbeat, as a safety net) read again after the last
 * sent seq. Events are only ever sent from PostgreSQL, in seq order, so a reconnecting client that
 * passes its last id gets no gap and no duplicate (S1). Ends with `event: end` once the run is
 * terminal and every event was sent; closes on abort with all timers and subscriptions released.
 */
export function runEventStream(options: RunStreamOptions): ReadableStream<Uint8Array> {
  const { runId, request } = options;
  const signal = request.signal;
  const pageSize = options.pageSize ?? 500;
  let lastSeq = Math.max(0, options.afterSeq);
  let closed = false;
  let pumping = false;
  let again = false;
  const timers: NodeJS.Timeout[] = [];
  let unsubscribe: (() => void) | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  counters.open++;

  const close = (): void => {
    if (closed) return;
    closed = true;
    counters.open--;
    for (const t of timers.splice(0)) {
      clearInterval(t);
      counters.timers--;
    }
    unsubscribe?.();
    request.signal.removeEventListener("abort", close);
    try {
      controller.close();
    } catch {
      // already closed or errored by the consumer
    }
  };

  const send = (chunk: Uint8Array): void => {
    if (!closed) controller.enqueue(chunk);
  };

  const drain = async (): Promise<void> => {
    while (!closed) {
      const progress = await runProgress(runId);
      const batch = await readEvents(runId, lastSeq, pageSize);
      if (closed) return;
      for (const envelope of batch) {
        const shown = options.transform ? options.transform(envelope) : envelope;
        if (shown) send(frame(shown));
        lastSeq = envelope.seq;
      }
      if (batch.length === pageSize) continue;
      const status = progress ? runStatusSchema.parse(progress.status) : null;
      if (!progress || !status || (isTerminalRunStatus(status) && lastSeq >= progress.lastSeq)) {
        send(encoder.encode(`event: end\ndata: ${JSON.stringify({ status, lastSeq })}\n\n`));
        close();
      }
      return;
    }
  };

  const pump = async (): Promise<void> => {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        await drain();
      } while (again && !closed);
    } catch (err) {
      log.warn("event stream read failed; retrying on the next wake-up", { runId, err });
    } finally {
      pumping = false;
    }
  };

  const every = (ms: number, fn: () => void): void => {
    if (closed) return;
    timers.push(setInterval(fn, ms));
    counters.timers++;
  };

  const start = async (): Promise<void> => {
    try {
      const off = await runEventHub().subscribe(runId, () => void pump());
      if (closed) return off();
      unsubscribe = off;
    } catch (err) {
      log.warn("wake-up subscription failed; the stream falls back to heartbeat polling", { runId, err });
    }
    every(options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS, () => {
      send(encoder.encode(": ping\n\n"));
      void pump();
    });
    const revalidate = options.revalidate;
    if (revalidate) {
      every(options.revalidateMs ?? 2_000, () => {
        revalidate().then((ok) => ok || close(), () => undefined);
      });
    }
    await pump();
  };

  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (signal.aborted) return close();
      signal.addEventListener("abort", close, { once: true });
      send(encoder.encode("retry: 2000\n\n"));
      void start();
    },
    cancel() {
      close();
    },
  });
}

/**
 * The seq to resume after: the `Last-Event-ID` header (what EventSource sends on reconnect) wins
 * over `?after=`; anything not a non-negative integer counts as 0 (replay everything).
 */
export function resumeSeq(request: Request): number {
  const raw = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after") ?? "0";
  const n = Number(raw.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
