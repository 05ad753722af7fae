import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signBody, verifySignature } from "./signature";

describe("notification signatures", () => {
  const body = JSON.stringify({ event: "run.finished", runId: "r1" });

  it("is an HMAC-SHA256 of '<t>.<body>' that a receiver can recompute", () => {
    const header = signBody("s3cret", 1_700_000_000, body);
    const expected = createHmac("sha256", "s3cret").update(`1700000000.${body}`).digest("hex");
    expect(header).toBe(`t=1700000000,v1=${expected}`);
    expect(verifySignature("s3cret", header, body, 1_700_000_010)).toBe(true);
  });

  it("fails for another secret, a changed body, an old timestamp or a malformed header", () => {
    const header = signBody("s3cret", 1_700_000_000, body);
    expect(verifySignature("other", header, body, 1_700_000_000)).toBe(false);
    expect(verifySignature("s3cret", header, body.replace("r1", "r2"), 1_700_000_000)).toBe(false);
    expect(verifySignature("s3cret", header, body, 1_700_000_000 + 301)).toBe(false);
    for (const bad of [null, "", "t=x,v1=abc", "v1=" + "0".repeat(64), `t=1700000000,v1=${"z".repeat(64)}`])
      expect(verifySignature("s3cret", bad, body, 1_700_000_000)).toBe(false);
  });
});
