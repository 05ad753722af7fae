import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPrivateAddress } from "./ip";

/** Resolves a host name to all its addresses (injectable so tests never touch real DNS). */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** Outbound policy of one tool. Defaults: any public host, 2 MB, 10 s, 5 redirects, system DNS. */
export interface NetPolicy {
  /** Per-tool domain allowlist: exact host or any subdomain of an entry. Empty/absent = any public host. */
  allowedDomains?: string[];
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  resolver?: Resolver;
  /** TEST ONLY: private addresses allowed anyway (a local fixture server). Ignored unless NODE_ENV=test. */
  testOnlyAllowAddresses?: string[];
  /**
   * An operator's choice, never a user's: private, loopback and link-local addresses allowed (a
   * self-hosted install notifying its own services; WEFT_NOTIFY_ALLOW_PRIVATE). Scheme, credential
   * and allowlist checks and IP pinning still apply.
   */
  allowPrivate?: boolean;
}

/** Why a request was refused; `stage` says how far it got (never past the check: no connection was made). */
export class NetRefusedError extends Error {
  constructor(
    readonly stage: "url" | "scheme" | "allowlist" | "resolve" | "address" | "redirect",
    message: string,
  ) {
    super(message);
    this.name = "NetRefusedError";
  }
}

/** A URL that passed every check, with the ONE address the connection must use. */
export interface CheckedTarget {
  url: URL;
  hostname: string;
  address: string;
  family: 4 | 6;
}

const systemResolver: Resolver = async (hostname) => lookup(hostname, { all: true, verbatim: true });

function matchesAllowlist(hostname: string, allowed: string[] | undefined): boolean {
  if (!allowed || allowed.length === 0) return true;
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return allowed.some((entry) => {
    const e = entry.toLowerCase().replace(/^\*\./, "").replace(/\.$/, "");
    return host === e || host.endsWith(`.${e}`);
  });
}

function allowedAnyway(address: string, policy: NetPolicy): boolean {
  return process.env.NODE_ENV === "test" && (policy.testOnlyAllowAddresses ?? []).includes(address);
}

function parse(raw: string | URL): URL {
  try {
    return new URL(raw);
  } catch {
    throw new NetRefusedError("url", `not a valid URL: ${String(raw).slice(0, 200)}`);
  }
}

/**
 * Checks a URL against the policy and resolves it ONCE: http(s) only, no credentials in the URL,
 * host on the allowlist, not a localhost name, and EVERY resolved address public (WHATWG URL parsing
 * has already normalised decimal/octal/hex IPv4 forms to dotted quads). Returns the address to pin.
 */
export async function checkTarget(raw: string | URL, policy: NetPolicy = {}): Promise<CheckedTarget> {
  const url = parse(raw);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new NetRefusedError("scheme", `scheme ${url.protocol} is not allowed`);
  if (url.username || url.password) throw new NetRefusedError("url", "credentials in URLs are not allowed");
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  if (!matchesAllowlist(hostname, policy.allowedDomains))
    throw new NetRefusedError("allowlist", `${hostname} is not on this tool's domain allowlist`);
  const literal = isIP(hostname);
  if (!literal && !policy.allowPrivate && /(^|\.)localhost\.?$/i.test(hostname))
    throw new NetRefusedError("address", `${hostname} is a loopback name`);
  let addresses: Array<{ address: string; family: number }>;
  if (literal) addresses = [{ address: hostname, family: literal }];
  else {
    try {
      addresses = await (policy.resolver ?? systemResolver)(hostname);
    } catch (err) {
      throw new NetRefusedError(
        "resolve",
        `cannot resolve ${hostname}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  if (addresses.length === 0) throw new NetRefusedError("resolve", `${hostname} has no addresses`);
  const bad = policy.allowPrivate
    ? undefined
    : addresses.find((a) => isPrivateAddress(a.address) && !allowedAnyway(a.address, policy));
  if (bad) throw new NetRefusedError("address", `${hostname} resolves to a non-public address (${bad.address})`);
  const first = addresses[0]!;
  return { url, hostname, address: first.address, family: first.family === 6 ? 6 : 4 };
}
