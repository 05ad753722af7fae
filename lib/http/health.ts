import "server-only";
import { Redis } from "ioredis";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";

/** One dependency's state; `error` only when it failed. */
export interface DependencyHealth {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

export interface HealthReport {
  ok: boolean;
  postgres: DependencyHealth;
  redis: DependencyHealth;
  /** Names of the failing dependencies (empty when healthy). */
  failed: string[];
}

/** Runs one check with a deadline; never throws. */
export async function probe(fn: () => Promise<unknown>, timeoutMs: number): Promise<DependencyHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)),
      ),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      error: err instanceof Error ? err.message : String(err),
    };
  } finally {
    clearTimeout(timer);
  }
}

const g = globalThis as unknown as { __weftHealthRedis?: Redis };

function redis(): Redis {
  g.__weftHealthRedis ??= new Redis(env().REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  }).on("error", () => {});
  return g.__weftHealthRedis;
}

/** Checks PostgreSQL (SELECT 1) and Redis (PING) in parallel, each with a deadline (default 1.5 s). */
export async function checkHealth(timeoutMs = 1500): Promise<HealthReport> {
  const [postgres, redisHealth] = await Promise.all([
    probe(() => db().$queryRaw`SELECT 1`, timeoutMs),
    probe(() => redis().ping(), timeoutMs),
  ]);
  const failed = [...(postgres.ok ? [] : ["postgres"]), ...(redisHealth.ok ? [] : ["redis"])];
  return { ok: failed.length === 0, postgres, redis: redisHealth, failed };
}
