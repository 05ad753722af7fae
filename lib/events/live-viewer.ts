import "server-only";
import { createLogger } from "@/lib/logger";
import { apiRedis, runLiveKey, withRedisDeadline } from "@/lib/queue";
import { runEventHub } from "./hub";
import { liveStepField, parseLiveStepField, type LiveFrame } from "./live-frame";

const log = createLogger({ component: "live-viewer" });

/** While the viewer is behind, frames are merged and sent at most this often (and whenever it reads again). */
export const LIVE_COALESCE_MS = 40;

export interface LiveViewerOptions {
  runId: string;
  /** Sends one frame to the viewer now. */
  send: (frame: LiveFrame) => void;
  /** True while the viewer has not read what was sent (its stream's queue is full): frames are merged instead. */
  behind: () => boolean;
}

/** Merges `next` into `pending` (both of one step) so that applying the result equals applying both. */
function merge(pending: LiveFrame, next: LiveFrame): LiveFrame {
  const flags = {
    ...((next.tool ?? pending.tool) ? { tool: next.tool ?? pending.tool } : {}),
    ...(next.done || pending.done ? { done: true as const } : {}),
  };
  if (next.reset && next.at <= pending.at) return { ...next, ...flags };
  // next starts inside or right after pending's text: cut pending there and continue with next's text
  const text = pending.text.slice(0, next.at - pending.at) + next.text;
  return { ...pending, text, ...(pending.reset || next.reset ? { reset: true as const } : {}), ...flags };
}

/**
 * One viewer's live text (ephemeral tokens of the run's running steps) over the process's hub:
 * subscribe to the run's live channel FIRST, then read the text so far (one HGETALL) and send it
 * as one `reset` frame per step, then relay frames. Per step it tracks how many characters the
 * viewer has: a frame wholly before that is dropped, one that overlaps is trimmed, one that would
 * leave a gap (a frame lost in Redis) makes it read that step's text again. So a viewer joining
 * mid-step, or reconnecting, gets the text so far and then the rest, each character once.
 * A viewer that falls behind gets merged frames (at most one per step per LIVE_COALESCE_MS, or as
 * soon as it reads again): the worker never waits for it.
 */
export class LiveTextViewer {
  private readonly has = new Map<string, number>();
  private readonly pending = new Map<string, LiveFrame>();
  private buffered: (LiveFrame | null)[] | null = [];
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private closed = false;

  constructor(private readonly o: LiveViewerOptions) {}

  async start(): Promise<void> {
    try {
      const off = await runEventHub().subscribeLive(this.o.runId, (f) => this.onFrame(f));
      if (this.closed) return off();
      this.unsubscribe = off;
    } catch (err) {
      log.warn("live text subscription failed; the viewer sees each step's text when it ends", {
        runId: this.o.runId,
        err,
      });
      return;
    }
    await this.resync();
    const waiting = this.buffered ?? [];
    this.buffered = null;
    for (const f of waiting) this.onFrame(f);
  }

  /** Sends what was merged while the viewer was behind (its stream asks for more). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const frames = [...this.pending.values()];
    this.pending.clear();
    for (const f of frames) this.o.send(f);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.pending.clear();
    this.unsubscribe?.();
  }

  /** Reads the text so far of every running step (all, or one field) and sends each as a reset frame. */
  private async resync(field?: string): Promise<void> {
    let all: Record<string, string>;
    try {
      const key = runLiveKey(this.o.runId);
      all = field
        ? Object.fromEntries(
            (await withRedisDeadline("read live text", apiRedis().hmget(key, field, `${field}|tool`))).flatMap(
              (v, i) => (v === null ? [] : [[i === 0 ? field : `${field}|tool`, v]]),
            ),
          )
        : await withRedisDeadline("read live text", apiRedis().hgetall(key));
    } catch (err) {
      log.debug("live text not read", { runId: this.o.runId, err });
      return;
    }
    if (this.closed) return;
    for (const [f, text] of Object.entries(all)) {
      const step = parseLiveStepField(f);
      if (!step) continue;
      const tool = all[`${f}|tool`];
      this.emit({ ...step, at: 0, text, reset: true, ...(tool ? { tool } : {}) });
    }
  }

  private onFrame(frame: LiveFrame | null): void {
    if (this.closed) return;
    if (this.buffered) return void this.buffered.push(frame);
    if (!frame) return void this.resync();
    const field = liveStepField(frame);
    const has = this.has.get(field);
    if (frame.reset) return this.emit(frame);
    if (has === undefined ? frame.at > 0 : frame.at > has) return void this.resync(field);
    const from = has ?? 0;
    const end = frame.at + frame.text.length;
    if (end <= from && !frame.tool && !frame.done) return;
    this.emit({ ...frame, at: Math.max(frame.at, from), text: end <= from ? "" : frame.text.slice(from - frame.at) });
  }

  private emit(frame: LiveFrame): void {
    const field = liveStepField(frame);
    if (frame.done) this.has.delete(field);
    else this.has.set(field, frame.at + frame.text.length);
    const queued = this.pending.get(field);
    if (!queued && !this.o.behind()) return this.o.send(frame);
    this.pending.set(field, queued ? merge(queued, frame) : frame);
    this.timer ??= setTimeout(() => this.flush(), LIVE_COALESCE_MS);
  }
}
