import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseRetryAfter, ProviderError, retryDelay, toProviderError, withRetry } from "./retry";
import { startScriptedServer, type ScriptedServer } from "./scripted/server";

let server: ScriptedServer;
const call = (input: string) => () =>
  new ChatOpenAI({ model: "scripted-demo", apiKey: "k", maxRetries: 0, configuration: { baseURL: server.url } }).invoke(
    input,
  );

beforeAll(async () => {
  server = await startScriptedServer({
    fixtures: [
      {
        rules: [
          {
            id: "r429",
            match: { lastUser: "rate" },
            fault: { kind: "http", status: 429, retryAfter: 1 },
            times: 1,
            reply: { text: "ok after 429" },
          },
          {
            id: "r500",
            match: { lastUser: "boom" },
            fault: { kind: "http", status: 500 },
            times: 2,
            reply: { text: "ok after 500s" },
          },
          { id: "r401", match: { lastUser: "key" }, fault: { kind: "http", status: 401 } },
          {
            id: "reset",
            match: { lastUser: "reset" },
            fault: { kind: "reset" },
            times: 1,
            reply: { text: "ok after reset" },
          },
        ],
      },
    ],
  });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("withRetry against the scripted server", () => {
  it("waits at least retry-after (1 s) after a 429, then succeeds", async () => {
    const delays: number[] = [];
    const t0 = Date.now();
    const { value, attempts } = await withRetry(call("rate"), { onRetry: ({ delayMs }) => delays.push(delayMs) });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(value.content).toBe("ok after 429");
    expect(attempts).toBe(2);
    expect(delays).toEqual([1000]);
  });

  it("retries 500s with backoff", async () => {
    const errors: ProviderError[] = [];
    const { value, attempts } = await withRetry(call("boom"), {
      baseDelayMs: 20,
      onRetry: ({ error }) => errors.push(error),
    });
    expect(value.content).toBe("ok after 500s");
    expect(attempts).toBe(3);
    expect(errors.map((e) => [e.kind, e.status, e.retryable])).toEqual([
      ["server", 500, true],
      ["server", 500, true],
    ]);
  });

  it("retries a connection reset", async () => {
    const { value, attempts } = await withRetry(call("reset"), { baseDelayMs: 10 });
    expect(value.content).toBe("ok after reset");
    expect(attempts).toBe(2);
  });

  it("fails at once on 401", async () => {
    let n = 0;
    const t0 = Date.now();
    const err = await withRetry(() => (n++, call("key")()), { baseDelayMs: 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: "auth", status: 401, retryable: false });
    expect(n).toBe(1);
    expect(Date.now() - t0).toBeLessThan(900);
  });

  it("stops after maxAttempts with the last error", async () => {
    server.load([{ rules: [{ id: "always", fault: { kind: "http", status: 503 } }] }]);
    const err = await withRetry(call("x"), { maxAttempts: 3, baseDelayMs: 5 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "server", status: 503, retryable: true, attempts: 3 });
    expect(server.requests()).toHaveLength(3);
  });

  it("aborts while waiting", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("user cancelled")), 50);
    const t0 = Date.now();
    const err = await withRetry(call("rate"), { signal: ac.signal }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "aborted", message: "user cancelled", retryable: false });
    expect(Date.now() - t0).toBeLessThan(800);
  });
});

describe("classification and delays", () => {
  it("parses retry-after seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("1", now)).toBe(1000);
    expect(parseRetryAfter("0.5", now)).toBe(500);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it("classifies statuses, socket errors and timeouts", () => {
    const withStatus = (status: number, headers?: Record<string, string>) =>
      toProviderError(Object.assign(new Error(`${status} x`), { status, headers: new Headers(headers) }));
    expect(withStatus(429, { "retry-after": "2" })).toMatchObject({
      kind: "rate_limit",
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(withStatus(429, { "retry-after-ms": "150" })).toMatchObject({ retryAfterMs: 150 });
    for (const s of [500, 502, 503, 504]) expect(withStatus(s).retryable).toBe(true);
    for (const s of [400, 401, 403, 404, 422]) expect(withStatus(s).retryable).toBe(false);
    const reset = Object.assign(new TypeError("terminated"), {
      cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
    });
    expect(toProviderError(reset)).toMatchObject({ kind: "connection", retryable: true });
    expect(toProviderError(new Error("socket hang up"))).toMatchObject({ kind: "connection" });
    expect(toProviderError(new Error("Premature close"))).toMatchObject({ kind: "connection" });
    expect(toProviderError(Object.assign(new Error("Request timed out."), { name: "TimeoutError" }))).toMatchObject({
      kind: "timeout",
      retryable: true,
    });
    expect(toProviderError(Object.assign(new Error("Request was aborted."), { name: "AbortError" }))).toMatchObject({
      kind: "aborted",
      retryable: false,
    });
    expect(toProviderError(new Error("weird"))).toMatchObject({ kind: "unknown", retryable: false });
  });

  it("backs off exponentially with equal jitter, capped, and caps retry-after", () => {
    const err = new ProviderError("server", "x", 500);
    expect(retryDelay(1, err, { baseDelayMs: 100, random: () => 0 })).toBe(50);
    expect(retryDelay(3, err, { baseDelayMs: 100, random: () => 0.999 })).toBeGreaterThan(399);
    expect(retryDelay(10, err, { baseDelayMs: 100, maxDelayMs: 1000, random: () => 1 })).toBe(1000);
    expect(retryDelay(1, new ProviderError("rate_limit", "x", 429, 120_000), { maxRetryAfterMs: 5000 })).toBe(5000);
  });
});
