import { NextResponse, type NextRequest } from "next/server";
import { checkServerActionRequest, isServerActionRequest } from "@/lib/http/action-guard";

/**
 * Runs before every page and server action (never for /api, whose handlers guard their own bodies):
 * refuses a server action payload the JSON guard refuses (lib/http/action-guard.ts). Not an auth
 * boundary (CVE-2025-29927): pages and actions check the session themselves.
 */
export async function proxy(request: NextRequest): Promise<Response> {
  if (isServerActionRequest(request)) {
    const refused = await checkServerActionRequest(request);
    if (refused) return refused;
  }
  return NextResponse.next();
}

export const config = {
  // every path but the API and static files; prefetches included, so no request header can skip the guard
  matcher: ["/((?!api/|_next/static/|_next/image|favicon\\.ico|icon\\.svg).*)"],
};
