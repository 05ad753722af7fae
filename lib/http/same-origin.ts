import { requestHost } from "@/lib/net/client-address";

/**
 * CSRF guard for mutating route handlers (W4): refuses a request whose Origin (or Sec-Fetch-Site)
 * says it came from another site, and any `text/plain` body (the content type a cross-site form or
 * no-cors fetch can send without a preflight). Server actions get Next's own origin check.
 * Returns a 403 Response to send, or null when the request may proceed.
 */
export function refuseCrossSite(request: Request, options: { allowForm?: boolean } = {}): Response | null {
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") return forbidden("cross-site request refused");
  const origin = request.headers.get("origin");
  if (origin && origin !== "null") {
    // X-Forwarded-Host counts only from a trusted proxy (WEFT_TRUSTED_PROXIES), else the Host header
    const host = requestHost(request.headers, new URL(request.url).host);
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return forbidden("malformed Origin header");
    }
    if (originHost !== host) return forbidden("cross-origin request refused");
  } else if (origin === "null") {
    return forbidden("opaque origin refused");
  }
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "text/plain") return forbidden("text/plain bodies are refused");
  const formTypes = ["application/x-www-form-urlencoded", "multipart/form-data"];
  if (!options.allowForm && formTypes.includes(type)) return forbidden("form bodies are refused; send JSON");
  return null;
}

function forbidden(reason: string): Response {
  return Response.json({ error: { code: "forbidden", message: reason } }, { status: 403 });
}
