import "server-only";
import type { Redis } from "ioredis";
import type { LiveStepKey, LiveTextPort, LiveTextSink } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { createWorkerConnection, runLiveChannel, runLiveKey } from "@/lib/queue";
import { liveStepField, type LiveFrame } from "./live-frame";

const log = createLogger({ component: "live-text" });

/** How long a run's live text outlives its last write (a worker that died mid-step leaves nothing behind for long). */
export const LIVE_TEXT_TTL_MS = 10 * 60_000;
/** How long a finished step's text stays readable: a viewer joining before its step_finished is committed still sees it. */
export const LIVE_TEXT_LINGER_MS = 5_000;

/**
 * One statement per flush, atomic in Redis: the step's text so far (append, or set after a cut),
 * its latest tool, the key's expiry, and the frame PUBLISHed to the run's live channel. Because
 * the text and the frame change together, a viewer that reads the text so far after subscribing
 * can tell every later frame from every earlier one by its offset (lib/events/sse.ts).
 */
const FLUSH_LUA = `
if ARGV[2] == 'a' then
  local cur = redis.call('HGET', KEYS[1], ARGV[1]) or ''
  redis.call('HSET', KEYS[1], ARGV[1], cur .. ARGV[3])
elseif ARGV[2] == 's' then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], ARGV[1] .. '|tool', ARGV[6]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if ARGV[5] ~= '' then redis.call('PUBLISH', KEYS[2], ARGV[5]) end
return 1`;

type LiveRedis = Redis & {
  weftLiveFlush(
    hash: string,
    channel: string,
    field: string,
    mode: "a" | "s" | "n",
    text: string,
    ttl: number,
    frame: string,
    tool: string,
  ): Promise<number>;
};

let conn: LiveRedis | undefined;
let writes = 0;

/** The writer's Redis connection (one per process, made on first use). */
function redis(): LiveRedis {
  if (conn) return conn;
  const c = createWorkerConnection("weft-live-text") as LiveRedis;
  c.defineCommand("weftLiveFlush", { numberOfKeys: 2, lua: FLUSH_LUA });
  return (conn = c);
}

/** Redis statements this process sent for live text (B2b counts them per token). */
export const liveTextWrites = (): number => writes;

/** Closes the writer's connection (worker shutdown, end of a test file). */
export async function closeLiveTextWriter(): Promise<void> {
  const c = conn;
  conn = undefined;
  if (c) await c.quit().catch(() => c.disconnect());
}

/** One flush of one step: the Lua call's arguments, and what to do once Redis answered. */
interface Flush {
  args: Parameters<LiveRedis["weftLiveFlush"]>;
  done: boolean;
  sink: StepSink;
}

/** Steps with a change not yet sent, and whether a pipeline is in flight (one per process). */
const dirty = new Set<StepSink>();
let inflight = false;

/**
 * Sends every waiting step's change in ONE pipeline (one socket write, one Redis round trip) when
 * none is in flight; otherwise they wait for its answer and go out together with everything that
 * came meanwhile. Self-clocked per process: an idle Redis sees each change at once, a loaded one
 * (or a machine short of CPU) fewer, larger writes, never a queue of them (bench/history.md: one
 * write per step per chunk cost the worker a socket write per token).
 */
function sendDirty(): void {
  if (inflight || dirty.size === 0) return;
  const flushes: Flush[] = [];
  for (const sink of dirty) {
    const f = sink.take();
    if (f) flushes.push(f);
  }
  dirty.clear();
  if (!flushes.length) return;
  inflight = true;
  writes += flushes.length;
  const pipe = redis().pipeline() as ReturnType<LiveRedis["pipeline"]> & {
    weftLiveFlush(...args: Flush["args"]): unknown;
  };
  for (const f of flushes) pipe.weftLiveFlush(...f.args);
  pipe
    .exec()
    .then(
      (results) => results?.forEach(([err], i) => err && flushes[i]!.sink.failed(err)),
      (err: unknown) => flushes.forEach((f) => f.sink.failed(err)),
    )
    .finally(() => {
      inflight = false;
      for (const f of flushes) if (f.done) forget(f.args[0], f.args[2]);
      sendDirty();
    });
}

/**
 * One running step's live text. A change is queued for the process's next pipeline (sendDirty):
 * the step never waits for Redis, and a step that writes faster than Redis answers sends what
 * came meanwhile as one frame. Failures are logged once per step and dropped: the durable
 * step_finished carries the whole text anyway.
 */
class StepSink implements LiveTextSink {
  /** The text as the step wrote it (the authority); `sent` characters of it are in Redis. */
  private text = "";
  private sent = 0;
  /** Set when a cut went below `sent`: the next flush rewrites the text from there. */
  private cutAt: number | null = null;
  private toolName: string | undefined;
  private closed = false;
  private finished = false;
  private warned = false;
  private readonly field: string;

  constructor(private readonly key: LiveStepKey) {
    this.field = liveStepField(key);
  }

  append(text: string): void {
    if (this.closed || !text) return;
    this.text += text;
    this.flush();
  }

  truncate(length: number): void {
    if (this.closed || length >= this.text.length) return;
    this.text = this.text.slice(0, Math.max(0, length));
    if (this.text.length < this.sent) this.cutAt = Math.min(this.cutAt ?? this.text.length, this.text.length);
    this.flush();
  }

  tool(name: string): void {
    if (this.closed) return;
    this.toolName = name.slice(0, 200);
    this.flush();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.flush();
  }

  failed(err: unknown): void {
    if (!this.warned)
      log.warn("live text not sent (viewers see the step's result when it ends)", {
        runId: this.key.runId,
        nodeId: this.key.nodeId,
        err,
      });
    this.warned = true;
  }

  private flush(): void {
    if (this.finished) return;
    dirty.add(this);
    sendDirty();
  }

  /** The flush of everything changed since the last one (null when nothing did). */
  take(): Flush | null {
    if (this.finished) return null;
    const { runId, nodeId, iteration, attempt } = this.key;
    const base = { nodeId, iteration, attempt };
    let frame: LiveFrame | null = null;
    let mode: "a" | "s" | "n" = "n";
    let chunk = "";
    if (this.cutAt !== null) {
      mode = "s";
      chunk = this.text;
      frame = { ...base, at: this.cutAt, text: this.text.slice(this.cutAt), reset: true };
      this.cutAt = null;
    } else if (this.text.length > this.sent) {
      mode = "a";
      chunk = this.text.slice(this.sent);
      frame = { ...base, at: this.sent, text: chunk };
    }
    const tool = this.toolName ?? "";
    this.toolName = undefined;
    if (tool) frame = { ...(frame ?? { ...base, at: this.text.length, text: "" }), tool };
    const done = this.closed;
    if (done) frame = { ...(frame ?? { ...base, at: this.text.length, text: "" }), done: true };
    if (!frame) return null;
    this.sent = this.text.length;
    if (done) this.finished = true;
    return {
      args: [
        runLiveKey(runId),
        runLiveChannel(runId),
        this.field,
        mode,
        chunk,
        LIVE_TEXT_TTL_MS,
        JSON.stringify(frame),
        tool,
      ],
      done,
      sink: this,
    };
  }
}

/** Drops a finished step's text after LIVE_TEXT_LINGER_MS (its step_finished is committed by then). */
function forget(hash: string, field: string): void {
  setTimeout(() => {
    writes++;
    redis()
      .hdel(hash, field, `${field}|tool`)
      .catch(() => undefined);
  }, LIVE_TEXT_LINGER_MS).unref();
}

/** The engine's LiveTextPort over Redis: a per-run hash of the text so far plus a pub/sub channel of frames. */
export const redisLiveTextPort: LiveTextPort = {
  open: (key) => new StepSink(key),
};
