import "server-only";
import { Redis, type RedisOptions } from "ioredis";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { createLogger } from "@/lib/logger";

const log = createLogger({ component: "redis" });

/** Upper bound for any Redis call made while serving an HTTP request (D5: answer within 2 s, never hang); a healthy Redis answers in ~0.03 ms. */
export const API_REDIS_TIMEOUT_MS = 1_000;

/** REDIS_URL, read per call so tests can point a file elsewhere (default redis://127.0.0.1:6379). */
export function redisUrl(): string {
  return process.env.REDIS_URL || env().REDIS_URL;
}

/** Reconnect forever with capped backoff, so a worker resumes by itself after a Redis restart (D5). */
const reconnect = (times: number): number => Math.min(100 * times, 2_000);

/**
 * A connection for long-lived consumers (BullMQ Worker, pub/sub subscriber): commands wait through
 * reconnects (`maxRetriesPerRequest: null`, required by BullMQ workers). The caller closes it.
 */
export function createWorkerConnection(name = "weft-worker", extra: RedisOptions = {}): Redis {
  const conn = new Redis(redisUrl(), {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: reconnect,
    connectionName: name,
    ...extra,
  });
  conn.on("error", (err: Error) => log.warn("redis connection error", { name, err: err.message }));
  return conn;
}

/**
 * A fail-fast connection for request handlers: every command is rejected after
 * API_REDIS_TIMEOUT_MS (also while queued offline during an outage), so a request that needs Redis
 * while it is down fails quickly instead of hanging (D5).
 */
export function createApiConnection(name = "weft-api"): Redis {
  const conn = new Redis(redisUrl(), {
    maxRetriesPerRequest: 1,
    commandTimeout: API_REDIS_TIMEOUT_MS,
    connectTimeout: API_REDIS_TIMEOUT_MS,
    enableOfflineQueue: true,
    retryStrategy: reconnect,
    connectionName: name,
    lazyConnect: true,
  });
  conn.on("error", (err: Error) => log.warn("redis connection error", { name, err: err.message }));
  return conn;
}

const g = globalThis as unknown as { __weftApiRedis?: { url: string; conn: Redis } };

/** The process's shared fail-fast connection (kept on globalThis across Next hot reloads). */
export function apiRedis(): Redis {
  const url = redisUrl();
  if (!g.__weftApiRedis || g.__weftApiRedis.url !== url) {
    const old = g.__weftApiRedis?.conn;
    g.__weftApiRedis = { url, conn: createApiConnection() };
    old?.disconnect();
  }
  return g.__weftApiRedis.conn;
}

/** Closes the shared API connection (end of a test file, worker shutdown). */
export async function closeApiRedis(): Promise<void> {
  const current = g.__weftApiRedis;
  g.__weftApiRedis = undefined;
  if (current) await current.conn.quit().catch(() => current.conn.disconnect());
}

/**
 * Races `promise` against API_REDIS_TIMEOUT_MS and turns any Redis failure into
 * AppError("unavailable") (HTTP 503), so callers have one error to map.
 */
export async function withRedisDeadline<T>(what: string, promise: Promise<T>, ms = API_REDIS_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } catch (err) {
    throw new AppError("unavailable", `The queue is unavailable (${what}); try again shortly.`, {
      cause: err instanceof Error ? err.message : String(err),
    });
  } finally {
    clearTimeout(timer);
  }
}
