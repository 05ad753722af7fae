import { describe, expect, it } from "vitest";
import { checkProviderUrl } from "@/lib/providers/settings";
import { checkTarget, NetRefusedError, type Resolver } from "@/lib/net";

/**
 * The URL part of the bad-input corpus. Hostile addresses are strings handed to the SSRF guard:
 * nothing here connects anywhere, and host names resolve through a fake resolver (never DNS).
 */

/** Names and what a hostile DNS answers for them. */
const dns: Record<string, string[]> = {
  "metadata.google.internal": ["169.254.169.254"],
  "rebind.example": ["93.184.215.14", "127.0.0.1"],
  "intranet.example": ["10.1.2.3"],
  "router.example": ["192.168.0.1"],
  "cgnat.example": ["100.64.12.1"],
  "v6local.example": ["::1"],
  "ula.example": ["fd12:3456::1"],
  "mapped.example": ["::ffff:10.0.0.1"],
  "nat64.example": ["64:ff9b::a00:1"],
  "sixtofour.example": ["2002:c0a8:0101::1"],
  "teredo.example": ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
  "linklocal6.example": ["fe80::1"],
  "zero.example": ["0.0.0.0"],
  "multicast.example": ["224.0.0.1"],
  "broadcast.example": ["255.255.255.255"],
  "doc.example": ["192.0.2.10"],
  "bench.example": ["198.18.0.5"],
};
const resolver: Resolver = async (host) => {
  const list = dns[host];
  if (!list) throw new Error(`no such host ${host}`);
  return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

/** Every one must be refused by the guard, for tools (public only) and for users' providers. */
export const hostileUrls: string[] = [
  // loopback in every spelling WHATWG URL parsing normalises
  "http://127.0.0.1/",
  "http://127.1/",
  "http://127.0.0.1.:80/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://017700000001/",
  "http://0x7f.0.0.1/",
  "http://0177.0.0.1/",
  "http://[::1]/",
  "http://[0:0:0:0:0:0:0:1]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://localhost/",
  "http://LOCALHOST:3000/",
  "http://api.localhost/",
  "http://localhost./",
  // private, link-local, metadata, CGNAT, reserved
  "http://10.0.0.1/",
  "http://172.16.5.4/",
  "http://172.31.255.255/",
  "http://192.168.1.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://[fe80::1]/",
  "http://100.64.0.1/",
  "http://0.0.0.0/",
  "http://[::]/",
  "http://224.0.0.251/",
  "http://240.0.0.1/",
  "http://[fd00::1]/",
  "http://[fc00::1]/",
  "http://[64:ff9b::7f00:1]/",
  "http://[2002:7f00:1::]/",
  "http://192.0.0.8/",
  "http://198.51.100.7/",
  // names whose (hostile) DNS answers are private, including one public + one private answer
  ...Object.keys(dns).map((host) => `https://${host}/v1`),
  // schemes and credentials
  "file:///etc/passwd",
  "gopher://127.0.0.1:6379/_INFO",
  "ftp://example.com/",
  "ws://example.com/",
  "data:text/plain,hi",
  "javascript:alert(1)",
  "dict://127.0.0.1:11211/",
  "http://user:pass@example.com/",
  "http://@127.0.0.1/",
  "not a url",
  "http://",
  "//example.com/x",
];

describe("hostile URLs handed to the SSRF guard (bad-input corpus)", () => {
  it(`refuses every one of ${hostileUrls.length} hostile URLs for tools (no connection, no real DNS)`, async () => {
    expect(hostileUrls.length).toBeGreaterThanOrEqual(60);
    for (const url of hostileUrls) {
      const err = await checkTarget(url, { resolver }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, url).toBeInstanceOf(NetRefusedError);
    }
  });

  it("refuses the literal and loopback-name ones as a user's provider base URL, naming the setting", async () => {
    const literal = hostileUrls.filter((u) => /^https?:\/\//.test(u) && !Object.keys(dns).some((h) => u.includes(h)));
    for (const url of literal) {
      const err = await checkProviderUrl(url, false).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, url).toMatchObject({ status: 400, details: { field: "baseUrl" } });
    }
  });

  it("a tool's allowlist refuses every other host, public or not", async () => {
    const policy = {
      resolver: async () => [{ address: "93.184.215.14", family: 4 }],
      allowedDomains: ["api.example.com"],
    };
    for (const url of [
      "https://evil.example.com/",
      "https://example.com.evil.test/",
      "https://api.example.com.evil.test/",
    ]) {
      await expect(checkTarget(url, policy), url).rejects.toMatchObject({ stage: "allowlist" });
    }
    await expect(checkTarget("https://v2.api.example.com/", policy)).resolves.toMatchObject({
      address: "93.184.215.14",
    });
  });
});
