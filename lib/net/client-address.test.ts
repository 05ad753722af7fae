import { describe, expect, it } from "vitest";
import { refuseCrossSite } from "@/lib/http/same-origin";
import { clientIp, markPeerStampActive, parseTrustedProxies, PEER_HEADER, requestHost } from "./client-address";

const none = parseTrustedProxies(undefined);
const h = (headers: Record<string, string>) => new Headers(headers);

describe("client address", () => {
  it("without a stamp nobody's header is believed: every request is 'unknown'", () => {
    expect(clientIp(h({ [PEER_HEADER]: "203.0.113.9", "x-forwarded-for": "1.2.3.4" }), none)).toBe("unknown");
  });

  it("finding 6: without a trusted proxy the socket's address is the client, whatever X-Forwarded-For says", () => {
    markPeerStampActive();
    expect(clientIp(h({ [PEER_HEADER]: "::ffff:203.0.113.9", "x-forwarded-for": "1.2.3.4" }), none)).toBe(
      "203.0.113.9",
    );
    expect(clientIp(h({ [PEER_HEADER]: "2001:db8::1", "x-real-ip": "1.2.3.4" }), none)).toBe("2001:db8::1");
    expect(
      requestHost(
        h({ [PEER_HEADER]: "203.0.113.9", host: "app.example", "x-forwarded-host": "evil.example" }),
        "x",
        none,
      ),
    ).toBe("app.example");
  });

  it("a number of hops takes the entry that many proxies from the right", () => {
    markPeerStampActive();
    const one = parseTrustedProxies("1");
    expect(clientIp(h({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 198.51.100.4" }), one)).toBe(
      "198.51.100.4",
    );
    const two = parseTrustedProxies("2");
    expect(clientIp(h({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 198.51.100.4, 10.0.0.9" }), two)).toBe(
      "198.51.100.4",
    );
    expect(clientIp(h({ [PEER_HEADER]: "10.0.0.2" }), two)).toBe("10.0.0.2");
    expect(
      requestHost(h({ [PEER_HEADER]: "10.0.0.2", host: "internal:3000", "x-forwarded-host": "app.example" }), "x", one),
    ).toBe("app.example");
  });

  it("a list of proxies: the first address from the right that is not one of them; others' headers are ignored", () => {
    markPeerStampActive();
    const list = parseTrustedProxies("10.0.0.0/8, ::1");
    expect(clientIp(h({ [PEER_HEADER]: "10.1.2.3", "x-forwarded-for": "6.6.6.6, 198.51.100.4, 10.0.0.7" }), list)).toBe(
      "198.51.100.4",
    );
    expect(clientIp(h({ [PEER_HEADER]: "::1", "x-forwarded-for": "198.51.100.5" }), list)).toBe("198.51.100.5");
    expect(clientIp(h({ [PEER_HEADER]: "203.0.113.1", "x-forwarded-for": "198.51.100.5" }), list)).toBe("203.0.113.1");
    expect(
      requestHost(
        h({ [PEER_HEADER]: "203.0.113.1", host: "app.example", "x-forwarded-host": "evil.example" }),
        "x",
        list,
      ),
    ).toBe("app.example");
  });

  it("parses the setting strictly", () => {
    expect(parseTrustedProxies("0")).toEqual({ kind: "none" });
    expect(parseTrustedProxies(" 3 ")).toEqual({ kind: "hops", hops: 3 });
    for (const bad of ["11", "proxy.example", "10.0.0.0/33", "::1/129", "1.2.3"])
      expect(() => parseTrustedProxies(bad), bad).toThrow();
  });

  it("finding 6: a spoofed X-Forwarded-Host does not make a cross-site POST same-origin", () => {
    markPeerStampActive();
    const forged = new Request("http://localhost:3000/api/runs/x/cancel", {
      method: "POST",
      headers: {
        host: "localhost:3000",
        origin: "http://evil.example",
        "x-forwarded-host": "evil.example",
        [PEER_HEADER]: "203.0.113.9",
        "content-type": "application/json",
      },
      body: "{}",
    });
    expect(refuseCrossSite(forged)?.status).toBe(403);
  });
});
