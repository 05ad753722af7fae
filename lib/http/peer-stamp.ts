import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { createLogger } from "@/lib/logger";
import { isTrustedProxy, markPeerStampActive, PEER_HEADER, trustedProxies } from "@/lib/net/client-address";

const log = createLogger({ component: "peer-stamp" });

/** Forwarding headers only a trusted proxy may set. */
const FORWARDING = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
];

const g = globalThis as unknown as { __weftPeerStamp?: boolean };

/**
 * Stamps every request this process's HTTP server receives, before any handler sees it (Node's
 * `http.server.request.start` diagnostics channel, published just before the request event): the
 * socket's address goes into PEER_HEADER (whatever the client sent there is replaced), and the
 * forwarding headers of a peer that is not a trusted proxy (WEFT_TRUSTED_PROXIES) are dropped, so
 * neither Next, Auth.js nor the app can be told another client address or host. Called once by
 * instrumentation.ts in the web process.
 */
export function stampPeerAddresses(): void {
  if (g.__weftPeerStamp) return;
  g.__weftPeerStamp = true;
  const trust = trustedProxies();
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    const peer = socket.remoteAddress ?? "";
    request.headers[PEER_HEADER] = peer;
    if (!isTrustedProxy(peer, trust)) for (const h of FORWARDING) delete request.headers[h];
  });
  markPeerStampActive();
  log.info("client addresses come from the socket", {
    trustedProxies: trust.kind === "none" ? "none" : trust.kind === "hops" ? `${trust.hops} hop(s)` : "listed",
  });
}
