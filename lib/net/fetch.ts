import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { checkTarget, NetRefusedError, type CheckedTarget, type NetPolicy } from "./guard";

/** An outbound request (JSON-friendly: tools and sandboxed code build these). */
export interface GuardedRequest {
  url: string;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";
  headers?: Record<string, string>;
  body?: string;
}

/** The response: text body (utf-8), capped; `url` is the final URL after redirects. */
export interface GuardedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  url: string;
  redirects: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A lookup that ignores the name and answers with the address we already checked (IP pinning). */
export function pinnedLookup(target: CheckedTarget): LookupFunction {
  return ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

interface Hop {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(target: CheckedTarget, req: GuardedRequest, policy: NetPolicy, deadline: number): Promise<Hop> {
  const maxBytes = policy.maxBytes ?? 2_000_000;
  const mod = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => request.destroy(new Error("request timed out")), Math.max(1, deadline - Date.now()));
    const request = mod.request(
      target.url,
      {
        method: req.method ?? "GET",
        headers: { "user-agent": "WeftTools/1", ...req.headers },
        lookup: pinnedLookup(target),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let tooBig = false;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= maxBytes) return void chunks.push(chunk);
          tooBig = true;
          clearTimeout(timer);
          reject(new Error(`response larger than ${maxBytes} bytes`));
          request.destroy();
        });
        res.on("end", () => {
          clearTimeout(timer);
          if (tooBig) return;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    request.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    request.end(req.body);
  });
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

/**
 * HTTP(S) through the SSRF guard: every hop (the first URL and each redirect) is re-checked and
 * resolved once, and the connection is pinned to the checked address (no second DNS answer can swap
 * in a private IP). Caps response size and total time. Throws NetRefusedError or a network Error.
 */
export async function guardedFetch(req: GuardedRequest, policy: NetPolicy = {}): Promise<GuardedResponse> {
  const deadline = Date.now() + (policy.timeoutMs ?? 10_000);
  const maxRedirects = policy.maxRedirects ?? 5;
  let current: GuardedRequest = req;
  for (let redirects = 0; ; redirects++) {
    const target = await checkTarget(current.url, policy);
    const hop = await send(target, current, policy, deadline);
    const location = hop.headers.location;
    if (!REDIRECTS.has(hop.status) || !location) {
      return {
        status: hop.status,
        headers: flatHeaders(hop.headers),
        body: hop.body,
        url: target.url.toString(),
        redirects,
      };
    }
    if (redirects >= maxRedirects) throw new NetRefusedError("redirect", `more than ${maxRedirects} redirects`);
    const next = new URL(location, target.url).toString();
    const keepMethod = hop.status === 307 || hop.status === 308;
    const headers = new URL(next).origin === target.url.origin ? current.headers : undefined;
    current = keepMethod ? { ...current, url: next, headers } : { url: next, method: "GET", headers };
  }
}
