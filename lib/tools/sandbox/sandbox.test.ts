import { existsSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { escapePayloads, MARKER_FILE } from "./escapes";
import { runSandboxed } from "./sandbox";

const CONTAINED = ["error", "timeout", "memory", "stack"];

beforeAll(() => rmSync(MARKER_FILE, { force: true }));
afterAll(() => expect(existsSync(MARKER_FILE)).toBe(false));

describe("sandbox basics", { timeout: 60_000 }, () => {
  test("JSON in, JSON out, console.log captured", async () => {
    const r = await runSandboxed({
      code: `function run(i){ console.log("sum", i.a + i.b); return { sum: i.a + i.b, list: [1, "x", null] } }`,
      input: { a: 2, b: 3 },
    });
    expect(r).toMatchObject({ ok: true, output: { sum: 5, list: [1, "x", null] }, logs: ["sum 5"] });
  });

  test("capabilities are explicit: a granted one works, anything else is absent", async () => {
    const calls: unknown[] = [];
    const r = await runSandboxed({
      code: `async function run(i, caps){ const got = await caps.echo({ q: i.q }); return { got, names: Object.keys(caps) } }`,
      input: { q: "hello" },
      capabilities: { echo: async (args) => (calls.push(args), { echoed: args }) },
    });
    expect(r).toMatchObject({ ok: true, output: { got: { echoed: { q: "hello" } }, names: ["echo"] } });
    expect(calls).toEqual([{ q: "hello" }]);
  });

  test("a failing capability rejects inside the sandbox", async () => {
    const r = await runSandboxed({
      code: `async function run(i, caps){ try { await caps.boom() } catch (e) { return "caught: " + e.message } }`,
      capabilities: {
        boom: async () => {
          throw new Error("nope");
        },
      },
    });
    expect(r).toMatchObject({ ok: true, output: "caught: nope" });
  });

  test("code without run() and syntax errors are contained errors", async () => {
    expect(await runSandboxed({ code: "const x = 1" })).toMatchObject({ ok: false, error: { kind: "error" } });
    expect(await runSandboxed({ code: "function run( {" })).toMatchObject({
      ok: false,
      error: { kind: "error", name: "SyntaxError" },
    });
  });

  test("output over the cap is refused", async () => {
    const r = await runSandboxed({ code: `function run(){ return "x".repeat(5000) }`, maxOutputBytes: 1000 });
    expect(r).toMatchObject({ ok: false, error: { kind: "output" } });
  });
});

describe.concurrent("X1 escape payloads end in a contained error", { timeout: 60_000 }, () => {
  test("there are at least 30 payloads", () => expect(Object.keys(escapePayloads).length).toBeGreaterThanOrEqual(30));
  for (const [name, code] of Object.entries(escapePayloads)) {
    test(name, async () => {
      const r = await runSandboxed({ code, timeoutMs: 2000, capabilities: { echo: async (a) => a } });
      expect(r.ok, JSON.stringify(r)).toBe(false);
      if (!r.ok) expect(CONTAINED).toContain(r.error.kind);
    });
  }
});

describe("X3 limits", { timeout: 60_000 }, () => {
  test("while(true){} is stopped at its deadline ±10 %", async () => {
    const t0 = Date.now();
    const r = await runSandboxed({ code: `function run(){ while(true){} }`, timeoutMs: 1000 });
    const total = Date.now() - t0;
    expect(r).toMatchObject({ ok: false, error: { kind: "timeout" } });
    expect(r.durationMs).toBeGreaterThanOrEqual(1000);
    expect(r.durationMs).toBeLessThanOrEqual(1100);
    console.info(
      `X3 deadline 1000 ms: stopped after ${r.durationMs} ms of execution (${total} ms incl. process start)`,
    );
  });

  test("an async busy loop (microtasks) is stopped at its deadline too", async () => {
    const r = await runSandboxed({ code: `async function run(){ for(;;) await null }`, timeoutMs: 500 });
    expect(r).toMatchObject({ ok: false, error: { kind: "timeout" } });
    expect(r.durationMs).toBeLessThanOrEqual(600);
  });

  test("object growth is stopped at the QuickJS memory cap", async () => {
    const r = await runSandboxed({
      code: `function run(){ const a = []; for(;;) a.push({ a: 1, b: [1, 2, 3] }) }`,
      memoryMb: 16,
      timeoutMs: 20_000,
    });
    expect(r).toMatchObject({ ok: false, error: { kind: "memory" } });
    expect(r.durationMs).toBeLessThan(20_000);
    console.info(`X3 object growth, 16 MB cap: stopped after ${r.durationMs} ms (${r.ok ? "" : r.error.message})`);
  });

  test("a 64 MB ArrayBuffer is refused under a 16 MB cap", async () => {
    const r = await runSandboxed({
      code: `function run(){ return new ArrayBuffer(64 * 1024 * 1024).byteLength }`,
      memoryMb: 16,
    });
    expect(r).toMatchObject({ ok: false, error: { kind: "memory" } });
  });

  test("string growth (missed by QuickJS's own limit) is stopped by the RSS watchdog", async () => {
    const r = await runSandboxed({
      code: `function run(){ const a = []; for(;;) a.push("x".repeat(100000) + a.length) }`,
      memoryMb: 16,
      rssLimitMb: 160,
      timeoutMs: 30_000,
    });
    expect(r).toMatchObject({ ok: false, error: { kind: "memory" } });
    expect(r.durationMs).toBeLessThan(30_000);
    console.info(`X3 string growth, RSS cap 160 MB: stopped after ${r.durationMs} ms (${r.ok ? "" : r.error.message})`);
  });

  test("deep recursion is a clean stack overflow", async () => {
    const r = await runSandboxed({ code: `function run(){ const f = (n) => f(n + 1) + 1; return f(0) }` });
    expect(r).toMatchObject({ ok: false, error: { kind: "stack" } });
  });
});
