import { describe, expect, it } from "vitest";
import { describeErrorPolicy, formatDelay } from "./error-policy-text";

describe("describeErrorPolicy", () => {
  it("says nothing for a node without a policy or timeout", () => {
    expect(describeErrorPolicy({})).toBeNull();
    expect(describeErrorPolicy({ onError: { onExhausted: "fail" } })).toBeNull();
  });

  it("names the timeout, the retries and what follows", () => {
    const text = describeErrorPolicy({
      timeoutMs: 30_000,
      onError: {
        retry: {
          maxAttempts: 3,
          initialDelayMs: 1_500,
          backoffFactor: 2,
          maxDelayMs: 60_000,
          on: ["rate_limit", "timeout"],
        },
        onExhausted: "error_branch",
      },
    });
    expect(text).toEqual({
      short: "⏱30 s ↻2 → error",
      full: "Each try times out after 30 s. Retries up to 2× on rate limit (429), timeout, first after 1.5 s, ×2 each time (at most 1 min). Then follows its error branch, carrying the error.",
    });
    expect(describeErrorPolicy({ onError: { onExhausted: "fallback", fallback: 1, fallbackBranch: "no" } })).toEqual({
      short: "fallback",
      full: 'Then answers its fallback output along "no".',
    });
  });

  it("formats delays", () => {
    expect([500, 2_000, 90_000, 7_200_000].map(formatDelay)).toEqual(["500 ms", "2 s", "1.5 min", "2 h"]);
  });
});
