/**
 * B2 harness server (plain node:http on a free loopback port): the three arms' endpoints and the
 * browser page that records arrival times. It listens on `ports` loopback ports: one page watches
 * every run, each stream on its own port, so Chromium's 6-connections-per-host limit never starves
 * a stream and one renderer (not twenty) shares the 2 cores with the servers.
 * - /product/:runId — this product's path: lib/events' runEventStream (PostgreSQL replay + Redis wake-ups);
 *   `?live` adds the running steps' live text frames (B2b).
 * - /relay/:runId — a Flowise-style relay: Redis SUBSCRIBE, each PUBLISHed payload written as an SSE frame
 *   (no ids, no replay: what is published while a viewer is disconnected is lost).
 * - /poll/:runId?after=N — JSON of the events after N (the page polls every second).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { runEventHub } from "@/lib/events/hub";
import { readEvents } from "@/lib/events/event-log";
import { resumeSeq, runEventStream } from "@/lib/events/sse";
import { relayChannel } from "./channels";
import { PAGE_HTML } from "./page";
import { TOKEN_PAGE_HTML } from "./token-page";

export interface HarnessServer {
  /** The page's origin. */
  url: string;
  /** One origin per port (all the same handler); stream i uses bases[i % bases.length]. */
  bases: string[];
  /** Destroys every open SSE connection (the "connection dropped mid-run" case). */
  dropAll(): number;
  /** Streams ready to deliver: product streams opened, relay subscriptions acknowledged by Redis. */
  ready(): number;
  /**
   * Per event ("runId:seq" → epoch ms): when its frame was written to its socket (`writes`) and, for
   * the product arm, when the process's hub handed its decoded wake-up to listeners (`hub`). Clears
   * both; `release` also drops the hub trace listeners (at the end of an arm).
   */
  takeRecords(release?: boolean): Records;
  close(): Promise<void>;
}

export interface Records {
  writes: Map<string, number>;
  hub: Map<string, number>;
}

/** Starts the harness server; `prefix` namespaces the relay channels. */
export async function startHarnessServer(prefix: string, redisUrl: string, ports = 20): Promise<HarnessServer> {
  const open = new Set<http.ServerResponse>();
  let ready = 0;
  let records: Records = { writes: new Map(), hub: new Map() };
  const mark = (into: "writes" | "hub", runId: string, seqs: Iterable<number>) => {
    const at = performance.timeOrigin + performance.now();
    const map = records[into];
    for (const seq of seqs) if (!map.has(`${runId}:${seq}`)) map.set(`${runId}:${seq}`, at);
  };
  const wrote = (runId: string, seqs: Iterable<number>) => mark("writes", runId, seqs);
  /** One extra hub listener per product run, recording when the hub delivered each carried event (after decodeWake). */
  const traces = new Map<string, Promise<() => void>>();
  const trace = (runId: string) => {
    if (!traces.has(runId))
      traces.set(
        runId,
        runEventHub().subscribe(runId, (w) =>
          mark(
            "hub",
            runId,
            (w.events ?? []).map((e) => e.seq),
          ),
        ),
      );
  };
  const decoder = new TextDecoder();
  const subscribers = new Set<Redis>();
  const cors = { "access-control-allow-origin": "*" };
  const handler: http.RequestListener = (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const [, arm, runId] = url.pathname.split("/");
    if (url.pathname === "/page") return void res.writeHead(200, { "content-type": "text/html" }).end(PAGE_HTML);
    if (url.pathname === "/tokens")
      return void res.writeHead(200, { "content-type": "text/html" }).end(TOKEN_PAGE_HTML);
    if (arm === "product" && runId) return product(req, res, runId, url.searchParams.has("live"));
    if (arm === "relay" && runId) return relay(res, runId);
    if (arm === "poll" && runId) {
      return void readEvents(runId, Number(url.searchParams.get("after") ?? 0)).then((e) => {
        res.writeHead(200, { "content-type": "application/json", ...cors }).end(JSON.stringify(e));
        wrote(
          runId,
          e.map((x) => x.seq),
        );
      });
    }
    res.writeHead(404).end();
  };

  const track = (res: http.ServerResponse) => {
    open.add(res);
    res.on("close", () => open.delete(res));
  };

  function product(req: http.IncomingMessage, res: http.ServerResponse, runId: string, liveText: boolean) {
    const abort = new AbortController();
    const lastId = req.headers["last-event-id"];
    const request = new Request("http://x/", {
      signal: abort.signal,
      headers: typeof lastId === "string" ? { "last-event-id": lastId } : {},
    });
    // as the route reads it: a live text frame's id `<seq>-t<n>` resumes after that seq
    const after = resumeSeq(request);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", ...cors });
    track(res);
    trace(runId);
    res.on("close", () => abort.abort());
    ready++;
    const reader = runEventStream({ runId, afterSeq: after, request, heartbeatMs: 15_000, liveText }).getReader();
    const pump = (): void =>
      void reader.read().then(
        ({ done, value }) => {
          if (done) return void res.end();
          res.write(value);
          wrote(
            runId,
            Array.from(decoder.decode(value).matchAll(/^id: (\d+)$/gm), (m) => Number(m[1])),
          );
          pump();
        },
        () => res.end(),
      );
    pump();
  }

  function relay(res: http.ServerResponse, runId: string) {
    const sub = new Redis(redisUrl, { lazyConnect: false });
    subscribers.add(sub);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", ...cors });
    res.write("retry: 2000\n\n");
    track(res);
    sub.on("message", (_ch, msg: string) => {
      res.write(`data: ${msg}\n\n`);
      wrote(runId, [(JSON.parse(msg) as { seq: number }).seq]);
    });
    void sub.subscribe(relayChannel(prefix, runId)).then(() => ready++);
    res.on("close", () => {
      subscribers.delete(sub);
      sub.disconnect();
    });
  }

  const servers = await Promise.all(
    Array.from({ length: Math.max(1, ports) }, async () => {
      const server = http.createServer(handler);
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      return server;
    }),
  );
  const bases = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`);
  return {
    url: bases[0]!,
    bases,
    ready: () => ready,
    takeRecords(release = false) {
      const taken = records;
      records = { writes: new Map(), hub: new Map() };
      if (release) {
        for (const off of traces.values())
          void off.then(
            (f) => f(),
            () => undefined,
          );
        traces.clear();
      }
      return taken;
    },
    dropAll() {
      const n = open.size;
      for (const res of open) res.destroy();
      return n;
    },
    async close() {
      for (const res of open) res.destroy();
      for (const off of traces.values())
        void off.then(
          (f) => f(),
          () => undefined,
        );
      for (const s of subscribers) s.disconnect();
      await Promise.all(
        servers.map((server) => {
          server.closeAllConnections();
          return new Promise<void>((r) => server.close(() => r()));
        }),
      );
    },
  };
}
