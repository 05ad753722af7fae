import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip";

describe("clientIp", () => {
  it("takes the first x-forwarded-for entry and unwraps IPv4-mapped IPv6", () => {
    expect(clientIp(new Headers({ "x-forwarded-for": "::ffff:127.0.0.1, 10.0.0.1" }))).toBe("127.0.0.1");
    expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.9" }))).toBe("203.0.113.9");
  });
  it("falls back to x-real-ip, then unknown", () => {
    expect(clientIp(new Headers({ "x-real-ip": "::1" }))).toBe("::1");
    expect(clientIp(new Headers())).toBe("unknown");
  });
});
