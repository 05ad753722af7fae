import "server-only";
import { Queue } from "bullmq";
import { apiRedis } from "./connection";
import { queuePrefix } from "./names";

type Held = { key: string; queue: Queue };
const g = globalThis as unknown as { __weftProducerQueues?: Map<string, Held> };
const held = (): Map<string, Held> => (g.__weftProducerQueues ??= new Map());

/**
 * A producer Queue on the shared fail-fast connection, one per queue name and process (kept on
 * globalThis across Next's module reloads). A new one replaces it when the prefix or connection
 * changed (tests) or it was closed.
 */
export function producerQueue<T>(name: string): Queue<T> {
  const conn = apiRedis();
  const key = `${queuePrefix()}|${conn.options.host}:${conn.options.port}|${conn.options.db ?? 0}`;
  const current = held().get(name);
  if (current && current.key === key && !current.queue.closing) return current.queue as Queue<T>;
  const queue = new Queue<T>(name, { connection: conn, prefix: queuePrefix(), skipWaitingForReady: true });
  held().set(name, { key, queue: queue as Queue });
  return queue;
}

/** Closes the named producer queue (not the shared connection; see closeApiRedis). */
export async function closeProducerQueue(name: string): Promise<void> {
  const current = held().get(name);
  held().delete(name);
  await current?.queue.close();
}
