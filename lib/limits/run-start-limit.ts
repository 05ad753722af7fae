import "server-only";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { leasedLimit } from "@/lib/limits/leased-limit";
import { createRateLimiter, type RateDecision, type RateLimiter, type RateLimitRule } from "@/lib/limits/rate-limit";

/**
 * W6: how many runs one user may start per minute (WEFT_RUN_START_LIMIT, default 60). Counted in
 * leases (lib/limits/leased-limit.ts): a burst of starts asks Redis once per few starts, a lone start once.
 * The limiter fails open after 250 ms so a Redis outage never blocks or slows starting a run (D5: an
 * API call answers within 2 s while Redis hangs; the run is then dispatched by the reconciler).
 */
const g = globalThis as unknown as {
  __weftRunLimiter?: {
    key: string;
    limiter: RateLimiter;
    count: (rule: RateLimitRule, key: string) => Promise<RateDecision>;
  };
};

function runStarts() {
  const e = env();
  const prefix = `${e.WEFT_QUEUE_PREFIX}:rl`;
  const key = `${e.REDIS_URL} ${prefix}`;
  if (g.__weftRunLimiter?.key !== key) {
    void g.__weftRunLimiter?.limiter.close();
    const limiter = createRateLimiter({ prefix, redisUrl: e.REDIS_URL, timeoutMs: 250 });
    g.__weftRunLimiter = { key, limiter, count: leasedLimit(limiter) };
  }
  return g.__weftRunLimiter;
}

/** Counts one run start for the user; throws AppError("rate_limited") with Retry-After when over. */
export async function enforceRunStartLimit(workspaceId: string): Promise<void> {
  const rule = { name: "run-start", max: env().WEFT_RUN_START_LIMIT, windowMs: 60_000 };
  const decision = await runStarts().count(rule, workspaceId);
  if (!decision.allowed) {
    throw new AppError(
      "rate_limited",
      `Too many runs started: at most ${rule.max} per minute. Try again in ${decision.retryAfterSeconds} s.`,
      undefined,
      decision.retryAfterSeconds,
    );
  }
}

/** Closes the limiter's Redis connection (tests, shutdown). */
export async function closeRunLimiter(): Promise<void> {
  await g.__weftRunLimiter?.limiter.close();
  g.__weftRunLimiter = undefined;
}
