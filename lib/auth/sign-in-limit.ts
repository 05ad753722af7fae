import "server-only";
import { rateLimiter, type RateLimiter, type RateLimitRule } from "@/lib/limits/rate-limit";

/** 5 failed sign-ins per email and IP per 15 minutes. */
export const SIGN_IN_PER_IP: RateLimitRule = { name: "signin-ip", max: 5, windowMs: 15 * 60_000 };
/** 20 failed sign-ins per email from any IP per 15 minutes (stops IP rotation). */
export const SIGN_IN_PER_EMAIL: RateLimitRule = { name: "signin-email", max: 20, windowMs: 15 * 60_000 };

const keys = (email: string, ip: string) => ({
  perIp: `${email.trim().toLowerCase()}|${ip}`,
  perEmail: email.trim().toLowerCase(),
});

/** Seconds to wait before another sign-in attempt for this email from this IP, or null when allowed. */
export async function signInRetryAfter(
  email: string,
  ip: string,
  limiter: RateLimiter = rateLimiter(),
): Promise<number | null> {
  const k = keys(email, ip);
  const [a, b] = await Promise.all([
    limiter.peek(SIGN_IN_PER_IP, k.perIp),
    limiter.peek(SIGN_IN_PER_EMAIL, k.perEmail),
  ]);
  const waits = [a, b].flatMap((d) => (d.allowed ? [] : [d.retryAfterSeconds]));
  return waits.length ? Math.max(...waits) : null;
}

/** Counts a failed attempt against both rules. */
export async function recordSignInFailure(
  email: string,
  ip: string,
  limiter: RateLimiter = rateLimiter(),
): Promise<void> {
  const k = keys(email, ip);
  await Promise.all([limiter.hit(SIGN_IN_PER_IP, k.perIp), limiter.hit(SIGN_IN_PER_EMAIL, k.perEmail)]);
}

/** A successful sign-in clears this IP's counter (the per-email one keeps counting others' failures). */
export async function clearSignInFailures(
  email: string,
  ip: string,
  limiter: RateLimiter = rateLimiter(),
): Promise<void> {
  await limiter.reset(SIGN_IN_PER_IP, keys(email, ip).perIp);
}
