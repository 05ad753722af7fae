import { NextResponse, type NextRequest } from "next/server";
import { checkServerActionRequest, isServerActionRequest } from "@/lib/http/action-guard";
import { newNonce, pageContentSecurityPolicy } from "@/lib/http/csp";

/**
 * Runs before every page and server action (never for /api, whose handlers guard their own bodies):
 * refuses a server action payload the JSON guard refuses (lib/http/action-guard.ts), and gives every
 * page a fresh script nonce and the strict Content-Security-Policy carrying it. Not an auth boundary
 * (CVE-2025-29927): pages and actions check the session themselves.
 */
export async function proxy(request: NextRequest): Promise<Response> {
  if (isServerActionRequest(request)) {
    const refused = await checkServerActionRequest(request);
    if (refused) return refused;
  }
  const nonce = newNonce();
  const policy = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // every path but the API and static files; prefetches included, so no request header can skip the guard
  matcher: ["/((?!api/|_next/static/|_next/image|favicon\\.ico|icon\\.svg).*)"],
};
