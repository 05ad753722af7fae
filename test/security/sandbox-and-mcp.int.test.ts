import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { rateLimiter } from "@/lib/limits/rate-limit";
import { createTestUser } from "@/test/fixtures";
import { handleMcpRequest } from "@/lib/mcp/server/server";
import { executeTool } from "@/lib/tools/registry";
import { SandboxBusyError } from "@/lib/tools/sandbox";
import { withSandboxSlot } from "@/lib/tools/sandbox/slots";
import { testQueuePrefix, useTestDatabase } from "@/test/db";

useTestDatabase();

beforeAll(() => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  process.env.WEFT_SANDBOX_PER_USER = "2";
  process.env.WEFT_MCP_RATE_LIMIT = "5";
  resetEnvCache();
});
afterAll(async () => {
  delete process.env.WEFT_SANDBOX_PER_USER;
  delete process.env.WEFT_MCP_RATE_LIMIT;
  resetEnvCache();
  await rateLimiter().close();
});

/** Sandboxed code that keeps its process busy for `ms` and says when it ran. */
const busy = (ms: number) =>
  `function run(){ const start = Date.now(); while (Date.now() - start < ${ms}) {} return { start, end: Date.now() } }`;

/** The most intervals that overlap at one moment. */
function peakOverlap(spans: { start: number; end: number }[]): number {
  const edges = spans
    .flatMap((s) => [[s.start, 1] as const, [s.end, -1] as const])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (now += d));
  return peak;
}

describe("sandbox slots and the MCP rate limit (finding 3)", () => {
  it("finding 3: one user's concurrent sandbox runs are capped at WEFT_SANDBOX_PER_USER; another user's are not held up by them", async () => {
    const [alice, bob] = [await createTestUser(), await createTestUser()];
    // four of alice's in two slots: two rounds, well inside the 10 s a caller waits for a slot even on a loaded machine
    const call = (owner: string) =>
      executeTool(owner, { name: "run_javascript" }, { code: busy(400), timeoutMs: 5000 });
    const results = await Promise.all([...Array.from({ length: 4 }, () => call(alice.id)), call(bob.id)]);
    expect(
      results.every((r) => r.ok),
      JSON.stringify(results.filter((r) => !r.ok)),
    ).toBe(true);
    const spans = results.map((r) =>
      r.ok ? (r.output as { output: { start: number; end: number } }).output : { start: 0, end: 0 },
    );
    // never more than the cap at once; exactly two is not guaranteed: on a loaded machine one sandbox
    // process can finish before the other in its slot has started its code
    expect(peakOverlap(spans.slice(0, 4))).toBeLessThanOrEqual(2);
    // bob's run started while alice's last two were still queued for her two slots
    expect(spans[4]!.start).toBeLessThan(Math.max(...spans.slice(0, 4).map((s) => s.start)));
  }, 60_000);

  it("a caller that waits too long is refused with a 429-style error, and a dead holder's slot frees itself", async () => {
    const owner = (await createTestUser()).id;
    const policy = { max: 1, waitMs: 150, leaseMs: 400 };
    let release!: () => void;
    const held = withSandboxSlot(owner, policy, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    const refused = await withSandboxSlot(owner, policy, async () => "ran").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SandboxBusyError);
    expect((refused as SandboxBusyError).status).toBe(429);
    expect((refused as SandboxBusyError).message).toContain("WEFT_SANDBOX_PER_USER");
    // the holder never releases (as if its process died): its lease ends and the slot is free again
    await new Promise((r) => setTimeout(r, 450));
    expect(await withSandboxSlot(owner, { ...policy, waitMs: 1000 }, async () => "ran")).toBe("ran");
    release();
    await held;
  });

  it("finding 3: /api/mcp answers 429 with Retry-After past WEFT_MCP_RATE_LIMIT", async () => {
    const owner = await createTestUser();
    const list = () =>
      handleMcpRequest(
        new Request("http://localhost/api/mcp", {
          method: "POST",
          headers: { ...owner.auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        }),
      );
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) statuses.push((last = await list()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await last!.json()) as { error: { message: string } }).error.message).toContain("WEFT_MCP_RATE_LIMIT");
  });

  it("/api/mcp reads its body through the JSON guard", async () => {
    const owner = await createTestUser();
    const deep = "[".repeat(100) + "]".repeat(100);
    const res = await handleMcpRequest(
      new Request("http://localhost/api/mcp", {
        method: "POST",
        headers: { ...owner.auth, "content-type": "application/json" },
        body: deep,
      }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("WEFT_JSON_MAX_DEPTH");
  });
});
