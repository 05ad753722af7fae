/**
 * B1's remote-services table: PostgreSQL and Redis "on the network" for both arms. A latency proxy
 * (latency-proxy.ts, in a process of its own) holds each of their answers `delayMs`; this process's
 * own connections (startRun's pool, the queue, the rate limiter) are re-opened through it for the
 * measurement and re-opened directly afterwards.
 */
import pg from "pg";
import { resetEnvCache } from "@/lib/env";
import { closeApiRedis, closeRunsQueue, redisUrl } from "@/lib/queue";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { closeRunStorePool } from "@/lib/run-store/run-sql";
import { median } from "../stats";
import { latencyProxyProcess } from "./support";

/** Median SELECT 1 round trip over `url` (100 of them), in ms. */
async function roundTrip(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const ms: number[] = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    await c.query("SELECT 1");
    ms.push(performance.now() - t0);
  }
  await c.end();
  return median(ms);
}

/** Closes this process's database and Redis clients and points DATABASE_URL / REDIS_URL at `urls` (they re-open lazily). */
async function reconnect(urls: { DATABASE_URL: string; REDIS_URL: string | undefined }): Promise<void> {
  await closeRunStorePool();
  await closeRunsQueue();
  await closeApiRedis();
  await closeRunLimiter();
  process.env.DATABASE_URL = urls.DATABASE_URL;
  if (urls.REDIS_URL === undefined) delete process.env.REDIS_URL;
  else process.env.REDIS_URL = urls.REDIS_URL;
  resetEnvCache(); // the rate limiter reads REDIS_URL through env()
}

/**
 * Runs `measure` with the database at `databaseUrl` and Redis behind the proxy: it gets the proxied
 * URLs (for the processes it starts). Answers its result with the round trip the proxy really
 * added (SELECT 1 through it minus direct, ms).
 */
export async function withRemoteServices<T>(
  databaseUrl: string,
  delayMs: number,
  measure: (dbUrl: string, redisUrl: string) => Promise<T>,
): Promise<T & { addedRoundTripMs: number; proxyDelayMs: number }> {
  const db = new URL(databaseUrl);
  const redis = new URL(redisUrl());
  const dbTarget = `${db.hostname}:${db.port || 5432}`;
  const redisTarget = `${redis.hostname}:${redis.port || 6379}`;
  const proxy = await latencyProxyProcess(delayMs, [dbTarget, redisTarget]);
  const via = (u: URL, port: number) =>
    Object.assign(new URL(u.toString()), { hostname: "127.0.0.1", port: String(port) }).toString();
  const proxied = { DATABASE_URL: via(db, proxy.ports[dbTarget]!), REDIS_URL: via(redis, proxy.ports[redisTarget]!) };
  const direct = { DATABASE_URL: process.env.DATABASE_URL ?? databaseUrl, REDIS_URL: process.env.REDIS_URL };
  try {
    const added = (await roundTrip(proxied.DATABASE_URL)) - (await roundTrip(databaseUrl));
    await reconnect(proxied);
    try {
      const result = await measure(proxied.DATABASE_URL, proxied.REDIS_URL);
      return { ...result, addedRoundTripMs: Math.round(added * 100) / 100, proxyDelayMs: delayMs };
    } finally {
      await reconnect(direct);
    }
  } finally {
    await proxy.close();
  }
}
