import "server-only";
import type { Redis } from "ioredis";
import { createLogger } from "@/lib/logger";
import { createWorkerConnection, runEventsChannel, runLiveChannel } from "@/lib/queue";
import { liveFrameSchema, type LiveFrame } from "./live-frame";
import { decodeWake, type WakeMessage } from "./wake";

const log = createLogger({ component: "event-hub" });

/**
 * Called with each wake-up (decoded once per message, shared by every listener of the run): the
 * last stored seq and, when the publisher carried them, the committed envelopes; `{ last: null }`
 * after a reconnect ("re-read everything").
 */
export type WakeListener = (wake: WakeMessage) => void;

/** Called with each live text frame of the run's running steps; null after a reconnect ("read the text so far again"). */
export type LiveListener = (frame: LiveFrame | null) => void;

/** A live frame from Redis, checked once for all listeners; null when unreadable (listeners re-read the text so far). */
function decodeLive(raw: string): LiveFrame | null {
  try {
    const parsed = liveFrameSchema.safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as LiveFrame) : null;
  } catch {
    return null;
  }
}

type Listener = (message: unknown) => void;

interface Channel {
  runId: string;
  /** Decodes a message once for every listener of the channel. */
  decode: (raw: string) => unknown;
  /** What a listener gets after a reconnect. */
  reconnected: unknown;
  listeners: Set<Listener>;
  /** Resolves once Redis acknowledged the SUBSCRIBE (so no wake-up after it can be missed). */
  ready: Promise<void>;
}

/**
 * Multiplexes ONE Redis subscriber connection per process across any number of live viewers:
 * a channel is SUBSCRIBEd when its first listener arrives and UNSUBSCRIBEd when its last leaves.
 * After a Redis reconnect (ioredis re-subscribes by itself) every listener is woken with null,
 * so wake-ups published during the outage are not lost.
 */
export class RunEventHub {
  private conn: Redis | undefined;
  private readonly channels = new Map<string, Channel>();
  private everReady = false;

  /** Listens for wake-ups of `runId`; resolves once subscribed. Returns the unsubscribe function (idempotent). */
  subscribe(runId: string, listener: WakeListener): Promise<() => void> {
    return this.join(
      runEventsChannel(runId),
      runId,
      (raw) => decodeWake(runId, raw),
      { last: null },
      listener as Listener,
    );
  }

  /** Listens for live text frames of `runId` (ephemeral tokens, lib/events/live-frame.ts); like `subscribe`. */
  subscribeLive(runId: string, listener: LiveListener): Promise<() => void> {
    return this.join(runLiveChannel(runId), runId, decodeLive, null, listener as Listener);
  }

  private async join(
    name: string,
    runId: string,
    decode: (raw: string) => unknown,
    reconnected: unknown,
    listener: Listener,
  ): Promise<() => void> {
    let channel = this.channels.get(name);
    if (!channel) {
      const conn = this.connection();
      channel = { runId, decode, reconnected, listeners: new Set(), ready: conn.subscribe(name).then(() => undefined) };
      this.channels.set(name, channel);
    }
    // a fresh wrapper per call, so one function subscribed twice counts (and leaves) twice
    const entry: Listener = (message) => listener(message);
    channel.listeners.add(entry);
    let done = false;
    const unsubscribe = () => {
      if (done) return;
      done = true;
      this.remove(name, entry);
    };
    try {
      await channel.ready;
    } catch (err) {
      unsubscribe();
      throw err;
    }
    return unsubscribe;
  }

  /** Counters for tests and the health endpoint (S3: back to baseline after streams close). */
  stats(): { channels: number; listeners: number; connected: boolean } {
    let listeners = 0;
    for (const c of this.channels.values()) listeners += c.listeners.size;
    return { channels: this.channels.size, listeners, connected: this.conn?.status === "ready" };
  }

  /** Closes the subscriber connection (process shutdown, end of a test file). */
  async close(): Promise<void> {
    const conn = this.conn;
    this.conn = undefined;
    this.channels.clear();
    if (conn) await conn.quit().catch(() => conn.disconnect());
  }

  private remove(name: string, listener: Listener): void {
    const channel = this.channels.get(name);
    if (!channel) return;
    channel.listeners.delete(listener);
    if (channel.listeners.size > 0) return;
    this.channels.delete(name);
    this.conn?.unsubscribe(name).catch((err: unknown) => log.warn("unsubscribe failed", { channel: name, err }));
  }

  private connection(): Redis {
    if (this.conn) return this.conn;
    const conn = createWorkerConnection("weft-event-hub");
    conn.on("message", (name: string, message: string) => {
      const channel = this.channels.get(name);
      if (!channel || channel.listeners.size === 0) return;
      const decoded = channel.decode(message);
      for (const listener of channel.listeners) listener(decoded);
    });
    conn.on("ready", () => {
      if (this.everReady) this.wakeAll();
      this.everReady = true;
    });
    this.conn = conn;
    return conn;
  }

  private wakeAll(): void {
    log.info("redis subscriber reconnected; waking every viewer", { channels: this.channels.size });
    for (const channel of this.channels.values())
      for (const listener of channel.listeners) listener(channel.reconnected);
  }
}

const g = globalThis as unknown as { __weftEventHub?: RunEventHub };

/** The process's hub (kept on globalThis across Next hot reloads). */
export function runEventHub(): RunEventHub {
  g.__weftEventHub ??= new RunEventHub();
  return g.__weftEventHub;
}

/** Closes and forgets the process's hub. */
export async function closeRunEventHub(): Promise<void> {
  const hub = g.__weftEventHub;
  g.__weftEventHub = undefined;
  await hub?.close();
}
