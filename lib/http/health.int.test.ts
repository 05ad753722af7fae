import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { checkHealth, probe } from "./health";

useTestDatabase();
afterAll(async () => {
  const g = globalThis as unknown as { __weftHealthRedis?: { disconnect(): void } };
  g.__weftHealthRedis?.disconnect();
});

describe("health", () => {
  it("reports PostgreSQL and Redis as up", async () => {
    // A generous deadline: the first query opens the pool, slow on a loaded 2-core machine.
    const report = await checkHealth(10_000);
    expect(report).toMatchObject({ ok: true, failed: [], postgres: { ok: true }, redis: { ok: true } });
  });

  it("a dependency that hangs fails at the deadline instead of hanging the check", async () => {
    const started = Date.now();
    const result = await probe(() => new Promise(() => {}), 200);
    expect(result.ok).toBe(false);
    expect(result.error).toContain("200 ms");
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("a failing dependency carries its error message", async () => {
    const result = await probe(() => Promise.reject(new Error("ECONNREFUSED")), 500);
    expect(result).toMatchObject({ ok: false, error: "ECONNREFUSED" });
  });
});
