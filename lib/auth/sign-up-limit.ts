import "server-only";
import { env } from "@/lib/env";
import { rateLimiter, type RateLimiter, type RateLimitRule } from "@/lib/limits/rate-limit";

/** Sign-ups one client address may make per hour (WEFT_SIGN_UP_LIMIT, default 20). */
export const signUpRule = (): RateLimitRule => ({
  name: "signup-ip",
  max: env().WEFT_SIGN_UP_LIMIT,
  windowMs: 60 * 60_000,
});

/** Counts a sign-up from `ip`; seconds to wait when it is over the limit, else null. */
export async function signUpRetryAfter(ip: string, limiter: RateLimiter = rateLimiter()): Promise<number | null> {
  const decision = await limiter.hit(signUpRule(), ip);
  return decision.allowed ? null : decision.retryAfterSeconds;
}
