import { afterAll, describe, expect, it } from "vitest";
import { testQueuePrefix } from "@/test/db";
import { createRateLimiter } from "./rate-limit";

const limiter = createRateLimiter({ prefix: testQueuePrefix() });
afterAll(() => limiter.close());

describe("rate limiter (real Redis)", () => {
  const rule = { name: "t", max: 3, windowMs: 60_000 };

  it("allows max hits, refuses the next with a retry-after inside the window", async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit(rule, "a@example.com|1.2.3.4"));
    expect(results.slice(0, 3).map((r) => r.allowed)).toEqual([true, true, true]);
    const last = results[3]!;
    expect(last.allowed).toBe(false);
    if (!last.allowed) {
      expect(last.retryAfterSeconds).toBeGreaterThan(0);
      expect(last.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
  });

  it("peek does not count, and refuses once max hits are recorded", async () => {
    const key = "peek-key";
    expect((await limiter.peek(rule, key)).allowed).toBe(true);
    expect((await limiter.peek(rule, key)).count).toBe(0);
    for (let i = 0; i < 3; i++) await limiter.hit(rule, key);
    expect((await limiter.peek(rule, key)).allowed).toBe(false);
  });

  it("keys are independent and reset clears one", async () => {
    for (let i = 0; i < 3; i++) await limiter.hit(rule, "k1");
    expect((await limiter.peek(rule, "k1")).allowed).toBe(false);
    expect((await limiter.peek(rule, "k2")).allowed).toBe(true);
    await limiter.reset(rule, "k1");
    expect((await limiter.peek(rule, "k1")).allowed).toBe(true);
  });

  it("the window expires", async () => {
    const short = { name: "short", max: 1, windowMs: 300 };
    await limiter.hit(short, "x");
    expect((await limiter.peek(short, "x")).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 400));
    expect((await limiter.peek(short, "x")).allowed).toBe(true);
  });

  it("fails open within its deadline when Redis is unreachable", async () => {
    const dead = createRateLimiter({ redisUrl: "redis://127.0.0.1:1", prefix: testQueuePrefix(), timeoutMs: 300 });
    const started = Date.now();
    const decision = await dead.hit(rule, "any");
    expect(decision.allowed).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    await dead.close();
  });
});
