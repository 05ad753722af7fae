import "server-only";
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";

/** A fixed-window rule: at most `max` hits per `windowMs` for one key. */
export interface RateLimitRule {
  /** Namespace of the counter (e.g. "signin"); part of the Redis key. */
  name: string;
  max: number;
  windowMs: number;
}

/** The outcome of a check: `retryAfterSeconds` is > 0 only when blocked. */
export type RateDecision =
  { allowed: true; count: number; remaining: number } | { allowed: false; count: number; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one hit, then decides (the hit that crosses `max` is the first refused). */
  hit(rule: RateLimitRule, key: string): Promise<RateDecision>;
  /** Decides without counting: refused once `max` hits are already recorded. */
  peek(rule: RateLimitRule, key: string): Promise<RateDecision>;
  /**
   * Counts up to `want` hits at once, as many as the window still has room for and at least one
   * (the hit that crosses `max` is counted and refused, as `hit` does): `granted` hits are allowed,
   * the caller spends them (lib/limits/leased-limit.ts) until the window ends, `windowLeftMs` from now.
   */
  take(
    rule: RateLimitRule,
    key: string,
    want: number,
  ): Promise<{ decision: RateDecision; granted: number; windowLeftMs: number }>;
  /** Forgets the counter (e.g. after a successful sign-in). */
  reset(rule: RateLimitRule, key: string): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  /** Default: REDIS_URL. */
  redisUrl?: string;
  /** Key prefix; tests pass a fresh one. Default: `${WEFT_QUEUE_PREFIX}:rl`. */
  prefix?: string;
  /** Per-command deadline; past it the limiter fails open. Default 750 ms. */
  timeoutMs?: number;
}

// After a count: sets the window (ARGV[1] ms) on the key's first hit and leaves `ttl` = ms left in it.
const WINDOW = `local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end`;

// INCR, set the window on the first hit, and return [count, ms left in the window].
const HIT = `local c = redis.call('INCR', KEYS[1])
${WINDOW}
return {c, ttl}`;

// Counts min(want = ARGV[2], room left under max = ARGV[3]) hits, at least one, and returns [hits counted, count, ms left in the window].
const TAKE = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = math.max(1, math.min(tonumber(ARGV[2]), tonumber(ARGV[3]) - c))
c = redis.call('INCRBY', KEYS[1], n)
${WINDOW}
return {n, c, ttl}`;

const PEEK = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
return {c, ttl}`;

function decide(rule: RateLimitRule, count: number, ttlMs: number, countsThisHit: boolean): RateDecision {
  const blocked = countsThisHit ? count > rule.max : count >= rule.max;
  if (!blocked) return { allowed: true, count, remaining: Math.max(0, rule.max - count) };
  const ms = ttlMs > 0 ? ttlMs : rule.windowMs;
  return { allowed: false, count, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/**
 * A Redis fixed-window limiter. It fails OPEN: if Redis is down or slow (past `timeoutMs`), the
 * request is allowed and a warning is logged, so a Redis outage never hangs or blocks sign-in.
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const e = env();
  const prefix = options.prefix ?? `${e.WEFT_QUEUE_PREFIX}:rl`;
  const timeoutMs = options.timeoutMs ?? 750;
  const redis = new Redis(options.redisUrl ?? e.REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  redis.on("error", (err) => logger.debug("rate-limit redis error", { err: err.message }));
  const keyOf = (rule: RateLimitRule, key: string) =>
    `${prefix}:${rule.name}:${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;

  /** Runs `script` on the rule's key (ARGV[1] = the window, then `args`) within the deadline. */
  const evalOn = async <T extends number[]>(
    rule: RateLimitRule,
    key: string,
    script: string,
    ...args: string[]
  ): Promise<T> =>
    (await withTimeout(redis.eval(script, 1, keyOf(rule, key), String(rule.windowMs), ...args), timeoutMs)) as T;
  /** Fails open: logs and answers what an allowed hit with nothing counted looks like. */
  const unavailable = (rule: RateLimitRule, err: unknown): RateDecision => {
    logger.warn("rate limiter unavailable; allowing request", { rule: rule.name, err });
    return { allowed: true, count: 0, remaining: rule.max };
  };

  const run = async (rule: RateLimitRule, key: string, script: string, counts: boolean): Promise<RateDecision> => {
    try {
      const [count, ttl] = await evalOn<[number, number]>(rule, key, script);
      return decide(rule, count, ttl, counts);
    } catch (err) {
      return unavailable(rule, err);
    }
  };

  return {
    hit: (rule, key) => run(rule, key, HIT, true),
    peek: (rule, key) => run(rule, key, PEEK, false),
    async take(rule, key, want) {
      try {
        const [n, count, ttl] = await evalOn<[number, number, number]>(
          rule,
          key,
          TAKE,
          String(Math.max(1, Math.floor(want))),
          String(rule.max),
        );
        const decision = decide(rule, count, ttl, true);
        return { decision, granted: decision.allowed ? n : 0, windowLeftMs: ttl > 0 ? ttl : rule.windowMs };
      } catch (err) {
        return { decision: unavailable(rule, err), granted: 1, windowLeftMs: 0 };
      }
    },
    async reset(rule, key) {
      await withTimeout(redis.del(keyOf(rule, key)), timeoutMs).catch((err: unknown) =>
        logger.warn("rate limiter reset failed", { rule: rule.name, err }),
      );
    },
    async close() {
      redis.disconnect();
    },
  };
}

const g = globalThis as unknown as { __weftRateLimiter?: RateLimiter };

/** The process's shared limiter (kept on globalThis across hot reloads). */
export function rateLimiter(): RateLimiter {
  g.__weftRateLimiter ??= createRateLimiter();
  return g.__weftRateLimiter;
}
