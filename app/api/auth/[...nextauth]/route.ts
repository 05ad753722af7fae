import { type NextRequest } from "next/server";
import { handlers } from "@/lib/auth";
import { credentialsRateLimit } from "@/lib/auth/credentials-guard";
import { refuseCrossSite } from "@/lib/http/same-origin";

export const GET = handlers.GET;

/** Auth.js POSTs (with its own CSRF token), behind a cross-site guard and the sign-in rate limit (429). */
export async function POST(request: NextRequest): Promise<Response> {
  const refused = refuseCrossSite(request, { allowForm: true });
  if (refused) return refused;
  const limited = await credentialsRateLimit(request);
  if (limited) return limited;
  return handlers.POST(request);
}
