import { afterAll, describe, expect, it } from "vitest";
import { testQueuePrefix } from "@/test/db";
import { leasedLimit } from "./leased-limit";
import { createRateLimiter, type RateLimiter } from "./rate-limit";

const limiter = createRateLimiter({ prefix: testQueuePrefix() });
afterAll(() => limiter.close());

/** The shared limiter with its `take` calls (round trips to Redis) counted. */
function counted(inner: RateLimiter = limiter) {
  const wants: number[] = [];
  const wrapped: RateLimiter = { ...inner, take: (rule, key, want) => (wants.push(want), inner.take(rule, key, want)) };
  return { wants, limit: leasedLimit(wrapped) };
}

let n = 0;
const fresh = () => `key-${++n}-${Date.now()}`;

describe("leased rate limit (real Redis)", () => {
  it("a lone hit counts exactly one in the shared window", async () => {
    const rule = { name: "lease", max: 64, windowMs: 60_000 };
    const key = fresh();
    const { limit, wants } = counted();
    expect(await limit(rule, key)).toMatchObject({ allowed: true, count: 1, remaining: 63 });
    expect(wants).toEqual([1]);
    expect((await limiter.peek(rule, key)).count).toBe(1);
  });

  it("a burst asks Redis once per lease, each twice the last up to max/8, and counts every hit it allowed", async () => {
    const rule = { name: "lease", max: 64, windowMs: 60_000 };
    const key = fresh();
    const { limit, wants } = counted();
    const decisions = [];
    for (let i = 0; i < 20; i++) decisions.push(await limit(rule, key));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(decisions.map((d) => d.count)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(wants).toEqual([1, 2, 4, 8, 8]);
    expect((await limiter.peek(rule, key)).count).toBe(23);
  });

  it("several processes together never allow more than max in a window; the refusal says when to retry", async () => {
    const rule = { name: "lease", max: 24, windowMs: 60_000 };
    const key = fresh();
    const processes = [counted(), counted(), counted()];
    let allowed = 0;
    let refused = 0;
    for (let i = 0; i < 60; i++) {
      const d = await processes[i % 3]!.limit(rule, key);
      if (d.allowed) allowed++;
      else {
        refused++;
        expect(d.retryAfterSeconds).toBeGreaterThan(0);
      }
    }
    expect(allowed).toBeLessThanOrEqual(24);
    // each process may hold back at most one unspent lease of max/8 = 3
    expect(allowed).toBeGreaterThanOrEqual(24 - 3 * 2);
    expect(refused).toBe(60 - allowed);
  });

  it("with a small max every hit asks Redis and the limit is exact", async () => {
    const rule = { name: "lease", max: 3, windowMs: 60_000 };
    const key = fresh();
    const { limit, wants } = counted();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limit(rule, key));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(wants).toEqual([1, 1, 1, 1]);
  });

  it("a lease ends with its window: its unspent hits are not carried into the next one", async () => {
    const rule = { name: "lease-short", max: 32, windowMs: 300 };
    const key = fresh();
    const { limit, wants } = counted();
    for (let i = 0; i < 4; i++) await limit(rule, key);
    expect(wants).toEqual([1, 2, 4]);
    await new Promise((r) => setTimeout(r, 400));
    expect(await limit(rule, key)).toMatchObject({ allowed: true, count: 1 });
    expect(wants).toEqual([1, 2, 4, 1]);
  });

  it("fails open when Redis is unreachable and leases nothing", async () => {
    const dead = createRateLimiter({ redisUrl: "redis://127.0.0.1:1", prefix: testQueuePrefix(), timeoutMs: 300 });
    const { limit, wants } = counted(dead);
    const rule = { name: "lease", max: 64, windowMs: 60_000 };
    const started = Date.now();
    expect((await limit(rule, "any")).allowed).toBe(true);
    expect((await limit(rule, "any")).allowed).toBe(true);
    expect(wants).toEqual([1, 1]);
    expect(Date.now() - started).toBeLessThan(2_000);
    await dead.close();
  });
});
