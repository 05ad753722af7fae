import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { pinnedLookup } from "./fetch";
import { checkTarget, NetRefusedError, type NetPolicy } from "./guard";

/** Statuses whose responses have no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** Request headers a pinned connection sets itself: the host comes from the URL, and bodies are never compressed (nothing would inflate them). */
const DROPPED = new Set(["host", "accept-encoding", "connection", "content-length", "transfer-encoding"]);

/**
 * A `fetch` for clients that take one (the OpenAI SDK): every request goes through the SSRF guard
 * (checkTarget: scheme, credentials, allowlist, every resolved address public unless the policy
 * allows private ones) and connects to the ONE address the guard checked (no second DNS answer can
 * swap in another). Redirects are never followed: a 3xx is answered as it is. The body streams as
 * it arrives (server-sent events work); the caller's signal aborts the connection. A refusal
 * throws what `refused(err)` makes of the NetRefusedError (default: the error itself).
 */
export function pinnedFetch(policy: NetPolicy, refused: (err: NetRefusedError) => Error = (err) => err): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    let target;
    try {
      target = await checkTarget(request.url, policy);
    } catch (err) {
      throw err instanceof NetRefusedError ? refused(err) : err;
    }
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      if (!DROPPED.has(key)) headers[key] = value;
    });
    if (body) headers["content-length"] = String(body.byteLength);
    const signal = init?.signal ?? undefined;
    const mod = target.url.protocol === "https:" ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = mod.request(
        target.url,
        { method: request.method, headers, lookup: pinnedLookup(target), agent: false, ...(signal ? { signal } : {}) },
        (res) => {
          const status = res.statusCode ?? 502;
          const out = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
            try {
              out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
            } catch {
              // a header the Fetch API cannot hold is left out
            }
          }
          const stream = NULL_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          if (!stream) res.resume();
          resolve(
            new Response(stream, {
              status: status < 200 || status > 599 ? 502 : status,
              statusText: res.statusMessage ?? "",
              headers: out,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  };
}
