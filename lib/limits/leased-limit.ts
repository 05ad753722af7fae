import "server-only";
import type { RateDecision, RateLimiter, RateLimitRule } from "@/lib/limits/rate-limit";

/** A lease holds at most this share of a window's hits (1/8: at 60 per minute, 7). */
const LEASE_SHARE = 8;
/** Keys a process keeps leases for at most (the oldest is forgotten past it: its hits are lost, never extra). */
const MAX_KEYS = 10_000;

interface Lease {
  /** Hits counted in Redis and not spent yet. */
  left: number;
  /** When the window they were counted in ends (ms since the epoch). */
  until: number;
  /** How many the next lease asks for. */
  next: number;
  /** The rule's max when leased (a changed limit drops the lease). */
  max: number;
  /** The window's count when leased, plus what was spent since (for the decision's `remaining`). */
  count: number;
}

/**
 * A fixed-window limit (lib/limits/rate-limit.ts) whose hits this process counts in Redis a few at a time:
 * the first hit of a key in a window counts one, and each time the lease is spent the next one asks
 * for twice as many, up to 1/8 of the window's `max`. A hit covered by a lease costs no round trip,
 * so a burst of starts asks Redis once per lease instead of once per start, and a lone start still
 * counts exactly one. The limit holds across processes: every hit allowed was counted in the shared
 * window first. What it costs: the hits a process leased and did not spend are lost when the window
 * ends, so a key that bursts from several processes may be refused up to a lease per process early.
 * Refused hits are counted as `hit` counts them; a Redis outage fails open as the limiter does.
 */
export function leasedLimit(limiter: RateLimiter): (rule: RateLimitRule, key: string) => Promise<RateDecision> {
  const leases = new Map<string, Lease>();
  return async (rule, key) => {
    const now = Date.now();
    const held = leases.get(key);
    const lease = held && now < held.until && held.max === rule.max ? held : undefined;
    if (lease && lease.left > 0) {
      lease.left--;
      lease.count++;
      return { allowed: true, count: lease.count, remaining: Math.max(0, rule.max - lease.count) };
    }
    const cap = Math.max(1, Math.floor(rule.max / LEASE_SHARE));
    const want = Math.min(cap, lease?.next ?? 1);
    const { decision, granted, windowLeftMs } = await limiter.take(rule, key, want);
    leases.delete(key);
    if (!decision.allowed || granted < 1) return decision;
    // this hit is the first of those granted
    const count = decision.count - granted + 1;
    leases.set(key, {
      left: granted - 1,
      until: now + windowLeftMs,
      next: Math.min(cap, want * 2),
      max: rule.max,
      count,
    });
    if (leases.size > MAX_KEYS) leases.delete(leases.keys().next().value!);
    return { allowed: true, count, remaining: Math.max(0, rule.max - count) };
  };
}
