import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConnection, UNREACHABLE } from "./test-connection";

/** Loopback listeners standing in for what a port scan would meet. */
const closers: Array<() => void> = [];
async function listen(server: net.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

let models = "";
let silent = "";
let resets = "";
let closed = "";
let redirects = "";

beforeAll(async () => {
  models = await listen(
    http.createServer((_req, res) => res.end(JSON.stringify({ data: [{ id: "a" }, { id: "b" }] }))),
  );
  redirects = await listen(
    http.createServer((_req, res) => res.writeHead(301, { location: "http://127.0.0.1:9/v1/models" }).end()),
  );
  // accepts and never answers (a filtered service)
  silent = await listen(net.createServer(() => undefined));
  // accepts and resets at once (a non-HTTP service)
  resets = await listen(net.createServer((socket) => socket.resetAndDestroy()));
  const gone = net.createServer();
  closed = await listen(gone);
  gone.close();
});
afterAll(() => {
  delete process.env.WEFT_PROVIDER_ALLOW_PRIVATE;
  for (const close of closers) close();
});

describe("Test connection", () => {
  it("lists the models of a reachable endpoint, and says so for a redirect instead of following it", async () => {
    process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
    expect(await testConnection(models, "k")).toEqual({ ok: true, message: "Connected — 2 models available." });
    expect(await testConnection(redirects, "k")).toMatchObject({
      ok: false,
      message: expect.stringContaining("redirect (HTTP 301)"),
    });
  });

  it("finding 1: every unreachable target gets the same message (no host or port oracle)", async () => {
    process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
    const answers = [
      await testConnection(closed, null),
      await testConnection(resets, null),
      await testConnection(silent, null),
    ];
    // with private addresses not allowed, the guard refuses before any connection: the same words
    process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "0";
    answers.push(await testConnection(models, "k"), await testConnection("http://169.254.169.254/latest", null));
    expect(answers).toEqual(answers.map(() => ({ ok: false, message: UNREACHABLE })));
  }, 20_000);
});
