import { isIP, type BlockList } from "node:net";
import { envSchema } from "@/lib/env";
import { parseTrustedProxies, type TrustedProxies } from "@/lib/trusted-proxies";

/**
 * Who is on the other end of a request, for rate limits, sign-in lockouts and the same-origin
 * check. The web server stamps every request with its socket's address (lib/http/peer-stamp.ts,
 * under PEER_HEADER, replacing anything a client sent). `X-Forwarded-For` and `X-Forwarded-Host`
 * count only as far as the operator trusts proxies (WEFT_TRUSTED_PROXIES): unset, the socket's
 * address is the client and the Host header the host; a number N trusts that many proxies in
 * front of the app; a list of addresses and CIDR ranges trusts exactly those proxies.
 */

/** The header the web server's stamp puts the socket's address in. */
export const PEER_HEADER = "x-weft-peer";

export { parseTrustedProxies, type TrustedProxies } from "@/lib/trusted-proxies";

const proxiesEnv = envSchema.pick({ WEFT_TRUSTED_PROXIES: true });
let cached: { raw: string | undefined; trust: TrustedProxies } | undefined;

/** This process's setting (WEFT_TRUSTED_PROXIES; lib/env.ts checks it at start-up). */
export function trustedProxies(source: Record<string, string | undefined> = process.env): TrustedProxies {
  const raw = source.WEFT_TRUSTED_PROXIES || undefined;
  if (cached?.raw !== raw || !cached) {
    const parsed = proxiesEnv.parse({ WEFT_TRUSTED_PROXIES: raw });
    cached = { raw, trust: parseTrustedProxies(parsed.WEFT_TRUSTED_PROXIES) };
  }
  return cached.trust;
}

/** An address as compared and counted: IPv4-mapped IPv6 unwrapped, lower case. */
export function normaliseAddress(address: string): string {
  return address
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1")
    .toLowerCase();
}

function inList(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family === 4 ? list.check(address, "ipv4") : family === 6 ? list.check(address, "ipv6") : false;
}

/** True when a request from `peer` (the socket's address) may speak for a client through forwarding headers. */
export function isTrustedProxy(peer: string, trust: TrustedProxies): boolean {
  if (trust.kind === "none") return false;
  if (trust.kind === "hops") return trust.hops > 0;
  return inList(trust.list, normaliseAddress(peer));
}

let stampActive = false;

/** Called by the web server's stamp (and tests that stand in for it): PEER_HEADER is believed from now on. */
export function markPeerStampActive(): void {
  stampActive = true;
}

/** The socket's address as the stamp recorded it, or null when this process has no stamp (then nobody's header is believed). */
export function peerAddress(headers: Headers): string | null {
  if (!stampActive) return null;
  const peer = headers.get(PEER_HEADER);
  return peer ? normaliseAddress(peer) : null;
}

const forwardedFor = (headers: Headers): string[] =>
  (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map(normaliseAddress)
    .filter((a) => isIP(a) !== 0);

/**
 * The client's address: the socket's, unless it is a trusted proxy; then the X-Forwarded-For entry
 * that proxy vouches for (N hops from the right, or the first from the right that is not a trusted
 * proxy). "unknown" when the process has no stamp.
 */
export function clientIp(headers: Headers, trust: TrustedProxies = trustedProxies()): string {
  const peer = peerAddress(headers);
  if (!peer) return "unknown";
  if (!isTrustedProxy(peer, trust)) return peer;
  const chain = [...forwardedFor(headers), peer];
  if (trust.kind === "hops") return chain[Math.max(0, chain.length - 1 - trust.hops)]!;
  for (let i = chain.length - 1; i >= 0; i--)
    if (trust.kind === "list" && !inList(trust.list, chain[i]!)) return chain[i]!;
  return chain[0]!;
}

/** The host the client asked for: X-Forwarded-Host from a trusted proxy, else the Host header. */
export function requestHost(headers: Headers, fallback: string, trust: TrustedProxies = trustedProxies()): string {
  const peer = peerAddress(headers);
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  if (forwarded && peer && isTrustedProxy(peer, trust)) return forwarded;
  return headers.get("host") ?? fallback;
}
