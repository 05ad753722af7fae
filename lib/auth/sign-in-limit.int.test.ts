import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { markPeerStampActive, PEER_HEADER } from "@/lib/net/client-address";
import { testQueuePrefix, useTestDatabase } from "@/test/db";

useTestDatabase();
markPeerStampActive();

beforeAll(() => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  resetEnvCache();
});
afterAll(async () => {
  const { rateLimiter } = await import("@/lib/limits/rate-limit");
  await rateLimiter().close();
});

const callback = (email: string, ip: string) =>
  new Request("http://localhost:3000/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", [PEER_HEADER]: ip },
    body: new URLSearchParams({ email, password: "wrong", csrfToken: "t" }),
  });

describe("sign-in rate limit (real Redis)", () => {
  it("the credentials callback answers 429 with Retry-After after 5 failures for an email+IP", async () => {
    const { recordSignInFailure, SIGN_IN_PER_IP } = await import("./sign-in-limit");
    const { credentialsRateLimit } = await import("./credentials-guard");
    const email = `victim-${Date.now()}@example.com`;
    for (let i = 0; i < SIGN_IN_PER_IP.max - 1; i++) {
      await recordSignInFailure(email, "10.0.0.1");
      expect(await credentialsRateLimit(callback(email, "10.0.0.1"))).toBeNull();
    }
    await recordSignInFailure(email, "10.0.0.1");
    const res = await credentialsRateLimit(callback(email.toUpperCase(), "10.0.0.1"));
    expect(res?.status).toBe(429);
    const retryAfter = Number(res?.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(await res?.json()).toMatchObject({ error: { code: "rate_limited" } });
    expect(await credentialsRateLimit(callback(email, "10.0.0.2"))).toBeNull();
  });

  it("rotating IPs still hits the per-email cap", async () => {
    const { recordSignInFailure, signInRetryAfter, SIGN_IN_PER_EMAIL } = await import("./sign-in-limit");
    const email = `rotate-${Date.now()}@example.com`;
    for (let i = 0; i < SIGN_IN_PER_EMAIL.max; i++) await recordSignInFailure(email, `10.1.0.${i}`);
    expect(await signInRetryAfter(email, "10.9.9.9")).toBeGreaterThan(0);
  });

  it("a success clears the email+IP counter; other paths pass through", async () => {
    const { recordSignInFailure, clearSignInFailures, signInRetryAfter } = await import("./sign-in-limit");
    const { credentialsRateLimit } = await import("./credentials-guard");
    const email = `ok-${Date.now()}@example.com`;
    for (let i = 0; i < 5; i++) await recordSignInFailure(email, "10.2.0.1");
    expect(await signInRetryAfter(email, "10.2.0.1")).not.toBeNull();
    await clearSignInFailures(email, "10.2.0.1");
    expect(await signInRetryAfter(email, "10.2.0.1")).toBeNull();
    const other = new Request("http://localhost:3000/api/auth/signout", { method: "POST", body: "x" });
    expect(await credentialsRateLimit(other)).toBeNull();
  });
});

describe("users", () => {
  it("hashes with argon2id, verifies, and refuses a duplicate email", async () => {
    const { createUser, verifyCredentials } = await import("@/lib/db/users");
    const { db } = await import("@/lib/db/client");
    const email = `dup-${Date.now()}@example.com`;
    const u = await createUser({ email, name: "Dup", password: "long enough pw" });
    const row = await db().user.findUniqueOrThrow({ where: { id: u.id } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyCredentials(email.toUpperCase(), "long enough pw")).toMatchObject({ id: u.id });
    expect(await verifyCredentials(email, "wrong password")).toBeNull();
    expect(await verifyCredentials("nobody@example.com", "long enough pw")).toBeNull();
    await expect(
      createUser({ email: ` ${email.toUpperCase()} `, name: "Again", password: "long enough pw" }),
    ).rejects.toMatchObject({ code: "conflict" });
  });
});
