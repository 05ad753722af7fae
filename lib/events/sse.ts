import "server-only";
import { isTerminalRunStatus, runStatusSchema, type RunEventEnvelope } from "@/lib/engine/events";
import { createLogger } from "@/lib/logger";
import { runEventHub } from "./hub";
import { readEvents, runProgress } from "./event-log";
import { liveFrameId, type LiveFrame } from "./live-frame";
import { LiveTextViewer } from "./live-viewer";
import type { WakeMessage } from "./wake";

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
  /** The viewer's credential or share link (S4): re-checked every revalidateMs (default 2 s); false closes the stream. */
  revalidate?: () => Promise<boolean>;
  revalidateMs?: number;
  /** Runs the re-check at once whenever it is called back (a revocation was published); returns the unsubscribe function. */
  recheckOn?: (recheck: () => void) => () => void;
  /** Share links (W2): maps an event to what the viewer may see, or null to send nothing. */
  transform?: (envelope: RunEventEnvelope) => RunEventEnvelope | null;
  /**
   * Also send the live text of running steps (`event: live` frames, lib/events/live-frame.ts):
   * content, so only for viewers allowed to see content (the owner, share links with content).
   */
  liveText?: boolean;
}

const counters = { open: 0, timers: 0 };

/** Open streams and live timers of this process; both return to baseline when streams close (S3). */
export const sseStats = (): { open: number; timers: number } => ({ ...counters });

const encoder = new TextEncoder();
/** Encoded frames of untransformed envelopes, shared by every viewer of a wake-up (one JSON.stringify per event). */
const frames = new WeakMap<RunEventEnvelope, Uint8Array>();
const frame = (envelope: RunEventEnvelope, shared: boolean): Uint8Array => {
  const cached = shared ? frames.get(envelope) : undefined;
  if (cached) return cached;
  const bytes = encoder.encode(`id: ${envelope.seq}\ndata: ${JSON.stringify(envelope)}\n\n`);
  if (shared) frames.set(envelope, bytes);
  return bytes;
};

/**
 * A run's live event stream: subscribe to wake-ups FIRST, then replay from PostgreSQL after
 * `afterSeq`, then tail. A wake-up that carries the committed envelopes (lib/events/wake.ts) is sent
 * straight from the message when its first seq is exactly the next one this viewer needs; on a seq
 * gap, a hint-only wake-up or a reconnect, the stream reads PostgreSQL after the last sent seq
 * (and every heartbeat, as a safety net). Frames leave in strict seq order, each seq once, so a
 * reconnecting client that passes its last id gets no gap and no duplicate (S1). Ends with
 * `event: end` once the run is terminal and every event was sent (confirmed from PostgreSQL);
 * closes on abort with all timers and subscriptions released.
 */
export function runEventStream(options: RunStreamOptions): ReadableStream<Uint8Array> {
  const { runId, request } = options;
  const signal = request.signal;
  const pageSize = options.pageSize ?? 500;
  let lastSeq = Math.max(0, options.afterSeq);
  let closed = false;
  let pumping = false;
  let again = false;
  /** Envelopes pushed by wake-ups and not sent yet (waiting for the seqs before them), by seq. */
  const pending = new Map<number, RunEventEnvelope>();
  const timers: NodeJS.Timeout[] = [];
  let unsubscribe: (() => void) | undefined;
  let stopRechecks: (() => void) | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let liveFrames = 0;
  const live = options.liveText
    ? new LiveTextViewer({
        runId,
        send: (f: LiveFrame) =>
          send(
            encoder.encode(`event: live\nid: ${liveFrameId(lastSeq, ++liveFrames)}\ndata: ${JSON.stringify(f)}\n\n`),
          ),
        behind: () => (controller.desiredSize ?? 1) <= 0,
      })
    : undefined;
  counters.open++;

  const close = (): void => {
    if (closed) return;
    closed = true;
    counters.open--;
    for (const t of timers.splice(0)) {
      clearInterval(t);
      counters.timers--;
    }
    pending.clear();
    live?.close();
    unsubscribe?.();
    stopRechecks?.();
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

  /** Sends one envelope (the next seq) through the share transform; true when it ends the run. */
  const emit = (envelope: RunEventEnvelope): boolean => {
    const shown = options.transform ? options.transform(envelope) : envelope;
    if (shown) send(frame(shown, shown === envelope));
    lastSeq = envelope.seq;
    return envelope.event.type === "run_finished";
  };

  const drain = async (): Promise<void> => {
    while (!closed) {
      const progress = await runProgress(runId);
      const batch = await readEvents(runId, lastSeq, pageSize);
      if (closed) return;
      for (const envelope of batch) emit(envelope);
      if (batch.length === pageSize) continue;
      const status = progress ? runStatusSchema.parse(progress.status) : null;
      if (!progress || !status || (isTerminalRunStatus(status) && lastSeq >= progress.lastSeq)) {
        send(encoder.encode(`event: end\ndata: ${JSON.stringify({ status, lastSeq })}\n\n`));
        close();
      }
      return;
    }
  };

  /**
   * Sends the pushed envelopes that continue the sequence. Returns true when PostgreSQL must be
   * read: a gap before a pushed seq (a wake-up lost or overtaken) or the run's last event sent
   * (the end is confirmed from the store).
   */
  const flushPending = (): boolean => {
    let finished = false;
    for (;;) {
      const next = pending.get(lastSeq + 1);
      if (!next || closed) break;
      pending.delete(next.seq);
      finished = emit(next) || finished;
    }
    for (const seq of pending.keys()) if (seq <= lastSeq) pending.delete(seq);
    return finished || pending.size > 0;
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
        if (!closed && flushPending()) again = true;
      } while (again && !closed);
    } catch (err) {
      log.warn("event stream read failed; retrying on the next wake-up", { runId, err });
    } finally {
      pumping = false;
    }
  };

  const onWake = (wake: WakeMessage): void => {
    if (closed) return;
    const events = wake.events;
    if (!events) {
      if (wake.last === null || wake.last > lastSeq) void pump();
      return;
    }
    for (const e of events) if (e.seq > lastSeq) pending.set(e.seq, e);
    // a viewer far behind (or a flood of wake-ups during a slow read) reads the store instead
    if (pending.size > pageSize) pending.clear();
    // a read in flight sends what it finds, then flushes `pending` (and reads again on a gap)
    if (pumping) return;
    if (flushPending() || (wake.last !== null && wake.last > lastSeq)) void pump();
  };

  const every = (ms: number, fn: () => void): void => {
    if (closed) return;
    timers.push(setInterval(fn, ms));
    counters.timers++;
  };

  const start = async (): Promise<void> => {
    try {
      const off = await runEventHub().subscribe(runId, onWake);
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
      const recheck = () =>
        void revalidate().then(
          (ok) => ok || close(),
          () => undefined,
        );
      every(options.revalidateMs ?? 2_000, recheck);
      if (options.recheckOn && !closed) stopRechecks = options.recheckOn(recheck);
    }
    await pump();
    // the status events first, so a viewer knows the steps before their text arrives
    if (live && !closed) await live.start();
  };

  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (signal.aborted) return close();
      signal.addEventListener("abort", close, { once: true });
      send(encoder.encode("retry: 2000\n\n"));
      void start();
    },
    pull() {
      live?.flush();
    },
    cancel() {
      close();
    },
  });
}

/**
 * The seq to resume after: the `Last-Event-ID` header (what EventSource sends on reconnect) wins
 * over `?after=`. A status event's id is its seq; a live text frame's is `<seq>-t<n>` (the last seq
 * sent before it), which resumes after that seq (the live text itself is sent again as the text so
 * far). Anything else counts as 0 (replay everything).
 */
export function resumeSeq(request: Request): number {
  const raw = (request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after") ?? "0").trim();
  const m = /^(\d+)(?:-t\d+)?$/.exec(raw);
  const n = m ? Number(m[1]) : 0;
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
