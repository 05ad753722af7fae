/**
 * B2 harness server (plain node:http on a free loopback port): the three arms' endpoints and the
 * browser page that records arrival times.
 * - /product/:runId — this product's path: lib/events' runEventStream (PostgreSQL replay + Redis wake-ups).
 * - /relay/:runId — a Flowise-style relay: Redis SUBSCRIBE, each PUBLISHed payload written as an SSE frame
 *   (no ids, no replay: what is published while a viewer is disconnected is lost).
 * - /poll/:runId?after=N — JSON of the events after N (the page polls every second).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { readEvents } from "@/lib/events/store";
import { runEventStream } from "@/lib/events/sse";
import { PAGE_HTML } from "./page";

export const relayChannel = (prefix: string, runId: string): string => `${prefix}:bench-relay:${runId}`;

export interface HarnessServer {
  url: string;
  /** Destroys every open SSE connection (the "connection dropped mid-run" case). */
  dropAll(): number;
  close(): Promise<void>;
}

/** Starts the harness server; `prefix` namespaces the relay channels. */
export async function startHarnessServer(prefix: string, redisUrl: string): Promise<HarnessServer> {
  const open = new Set<http.ServerResponse>();
  const subscribers = new Set<Redis>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const [, arm, runId] = url.pathname.split("/");
    if (url.pathname === "/page") return void res.writeHead(200, { "content-type": "text/html" }).end(PAGE_HTML);
    if (arm === "product" && runId) return product(req, res, runId);
    if (arm === "relay" && runId) return relay(res, runId);
    if (arm === "poll" && runId) return void readEvents(runId, Number(url.searchParams.get("after") ?? 0)).then((e) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(e)));
    res.writeHead(404).end();
  });

  const track = (res: http.ServerResponse) => {
    open.add(res);
    res.on("close", () => open.delete(res));
  };

  function product(req: http.IncomingMessage, res: http.ServerResponse, runId: string) {
    const abort = new AbortController();
    const request = new Request("http://x/", { signal: abort.signal });
    const after = Number(req.headers["last-event-id"] ?? 0) || 0;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "access-control-allow-origin": "*" });
    track(res);
    res.on("close", () => abort.abort());
    const reader = runEventStream({ runId, afterSeq: after, request, heartbeatMs: 15_000 }).getReader();
    const pump = (): void => void reader.read().then(({ done, value }) => {
      if (done) return void res.end();
      res.write(value);
      pump();
    }, () => res.end());
    pump();
  }

  function relay(res: http.ServerResponse, runId: string) {
    const sub = new Redis(redisUrl, { lazyConnect: false });
    subscribers.add(sub);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" });
    res.write("retry: 2000\n\n");
    track(res);
    sub.on("message", (_ch, msg: string) => res.write(`data: ${msg}\n\n`));
    void sub.subscribe(relayChannel(prefix, runId));
    res.on("close", () => {
      subscribers.delete(sub);
      sub.disconnect();
    });
  }

  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropAll() {
      const n = open.size;
      for (const res of open) res.destroy();
      return n;
    },
    async close() {
      for (const res of open) res.destroy();
      for (const s of subscribers) s.disconnect();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
