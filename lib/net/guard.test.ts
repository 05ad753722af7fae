import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkTarget, NetRefusedError, type Resolver } from "./guard";
import { guardedFetch } from "./fetch";
import { isPrivateAddress } from "./ip";

/** Fake DNS: names → addresses; records every lookup. No test here touches real DNS or a non-loopback host. */
function fakeResolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolver: Resolver = async (name) => {
    calls.push(name);
    const hit = table[name];
    if (!hit) throw new Error(`ENOTFOUND ${name}`);
    return hit.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { resolver, calls };
}

const dns = fakeResolver({
  "internal.example": ["10.1.2.3"],
  "mixed.example": ["93.184.216.34", "192.168.1.10"],
  "metadata.example": ["169.254.169.254"],
  "v6loop.example": ["::1"],
  "ula.example": ["fd12:3456::1"],
  "mapped.example": ["::ffff:127.0.0.1"],
  "cgnat.example": ["100.64.0.1"],
  "fixture.test": ["127.0.0.1"],
  "other.test": ["127.0.0.1"],
});

async function refused(url: string, stage?: string, allowedDomains?: string[]) {
  const err = await checkTarget(url, { resolver: dns.resolver, allowedDomains }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(NetRefusedError);
  if (stage) expect((err as NetRefusedError).stage, url).toBe(stage);
}

describe("X4: refused before any connection", () => {
  const literal = [
    "http://169.254.169.254/latest/meta-data/",
    "http://127.0.0.1/",
    "http://127.1.2.3:8080/",
    "http://0.0.0.0/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://172.31.255.255/",
    "http://192.168.0.1/",
    "http://100.64.0.1/",
    "http://100.127.255.254/",
    "http://[::1]/",
    "http://[::]/",
    "http://[fd00::1]/",
    "http://[fc00::1]/",
    "http://[fe80::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:7f00:1]/",
    "http://[64:ff9b::a00:1]/",
    "http://224.0.0.1/",
    "http://[ff02::1]/",
    "http://255.255.255.255/",
    // decimal / octal / hex / short IPv4 forms (normalised by the URL parser, then refused)
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.0.0.1/",
    "http://0x7f000001/",
    "http://127.1/",
    "http://017700000001/",
    "http://3232235521/",
    "http://0xa9fea9fe/",
  ];
  for (const url of literal) test(`literal ${url}`, () => refused(url, "address"));

  test("localhost names", async () => {
    await refused("http://localhost/", "address");
    await refused("http://LOCALHOST.:3000/", "address");
    await refused("http://app.localhost/", "address");
  });

  test("DNS names resolving to private addresses (any of them)", async () => {
    for (const host of [
      "internal.example",
      "mixed.example",
      "metadata.example",
      "v6loop.example",
      "ula.example",
      "mapped.example",
      "cgnat.example",
    ]) {
      await refused(`https://${host}/x`, "address");
    }
    await refused("http://fixture.test/", "address"); // loopback without the test-only override
  });

  test("non-http schemes and credentials", async () => {
    for (const url of [
      "file:///etc/passwd",
      "ftp://example.com/",
      "gopher://127.0.0.1:6379/_INFO",
      "data:text/plain,hi",
      "javascript:alert(1)",
      "ws://example.com/",
    ]) {
      await refused(url, "scheme");
    }
    await refused("http://user:pass@example.com/", "url");
    await refused("not a url", "url");
  });

  test("the per-tool allowlist is checked before resolving", async () => {
    const before = dns.calls.length;
    await refused("https://internal.example/", "allowlist", ["api.example.org"]);
    expect(dns.calls.length).toBe(before);
  });

  test("allowPrivate (an operator's setting) lets private and loopback targets through, and nothing else", async () => {
    const open = { resolver: dns.resolver, allowPrivate: true };
    expect(await checkTarget("https://internal.example/hook", open)).toMatchObject({ address: "10.1.2.3" });
    expect(
      await checkTarget("http://localhost:4000/", {
        ...open,
        resolver: async () => [{ address: "127.0.0.1", family: 4 }],
      }),
    ).toMatchObject({ address: "127.0.0.1" });
    await expect(checkTarget("file:///etc/passwd", open)).rejects.toMatchObject({ stage: "scheme" });
    await expect(checkTarget("http://user:pass@internal.example/", open)).rejects.toMatchObject({ stage: "url" });
  });

  test("public unicast addresses pass the IP check", () => {
    expect(isPrivateAddress("93.184.216.34")).toBe(false);
    expect(isPrivateAddress("2606:4700::1111")).toBe(false);
    expect(isPrivateAddress("not-an-ip")).toBe(true);
  });
});

describe("guardedFetch against a local fixture (loopback allowed ONLY via the test override)", () => {
  let server: http.Server;
  let port = 0;
  const seen: Array<{ url?: string; host?: string }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url, host: req.headers.host });
      if (req.url === "/to-metadata") return res.writeHead(302, { location: "http://169.254.169.254/latest/" }).end();
      if (req.url === "/to-internal") return res.writeHead(301, { location: "http://internal.example/" }).end();
      if (req.url === "/to-decimal") return res.writeHead(307, { location: "http://2852039166/" }).end();
      if (req.url === "/to-ok") return res.writeHead(302, { location: "/ok" }).end();
      if (req.url === "/big") return res.end("x".repeat(50_000));
      if (req.url === "/slow") return void setTimeout(() => res.end("late"), 2000);
      res.end(`hello from ${req.url}`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const policy = () => ({
    resolver: dns.resolver,
    testOnlyAllowAddresses: ["127.0.0.1"],
    allowedDomains: ["fixture.test"],
  });

  test("allowed request goes to the pinned, checked address", async () => {
    const before = dns.calls.filter((c) => c === "fixture.test").length;
    const res = await guardedFetch({ url: `http://fixture.test:${port}/ok` }, policy());
    expect(res).toMatchObject({ status: 200, body: "hello from /ok", redirects: 0 });
    expect(dns.calls.filter((c) => c === "fixture.test").length - before).toBe(1);
    expect(seen.at(-1)).toEqual({ url: "/ok", host: `fixture.test:${port}` });
  });

  test("a same-host redirect is followed (and re-checked)", async () => {
    const res = await guardedFetch({ url: `http://fixture.test:${port}/to-ok` }, policy());
    expect(res).toMatchObject({ status: 200, body: "hello from /ok", redirects: 1 });
  });

  test("redirects to private hosts are refused", async () => {
    const free = { ...policy(), allowedDomains: [] };
    for (const path of ["/to-metadata", "/to-internal", "/to-decimal"]) {
      const count = seen.length;
      const err = await guardedFetch({ url: `http://fixture.test:${port}${path}` }, free).catch((e: unknown) => e);
      expect(err, path).toBeInstanceOf(NetRefusedError);
      expect(seen.length - count, path).toBe(1); // only the first hop reached the fixture
    }
  });

  test("a redirect off the allowlist is refused", async () => {
    const err = await guardedFetch({ url: `http://fixture.test:${port}/to-internal` }, policy()).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ stage: "allowlist" });
  });

  test("size and time caps", async () => {
    await expect(
      guardedFetch({ url: `http://fixture.test:${port}/big` }, { ...policy(), maxBytes: 10_000 }),
    ).rejects.toThrow(/larger than/);
    const t0 = Date.now();
    await expect(
      guardedFetch({ url: `http://fixture.test:${port}/slow` }, { ...policy(), timeoutMs: 300 }),
    ).rejects.toThrow(/timed out/);
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  test("the override is ignored outside NODE_ENV=test", async () => {
    const prev = process.env.NODE_ENV;
    (process.env as Record<string, string>).NODE_ENV = "production";
    try {
      await expect(checkTarget(`http://fixture.test:${port}/`, policy())).rejects.toMatchObject({ stage: "address" });
    } finally {
      (process.env as Record<string, string | undefined>).NODE_ENV = prev;
    }
  });
});
