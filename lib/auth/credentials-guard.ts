import "server-only";
import { clientIp } from "@/lib/net/client-address";
import { signInRetryAfter } from "@/lib/auth/sign-in-limit";

/** The JSON body and headers of a 429 answer (W6). */
export function tooManyRequests(retryAfterSeconds: number): Response {
  return Response.json(
    {
      error: { code: "rate_limited", message: `Too many sign-in attempts. Try again in ${retryAfterSeconds} seconds.` },
    },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" } },
  );
}

/**
 * For POST …/callback/credentials: a 429 with Retry-After when this email+IP is rate limited,
 * else null (let Auth.js handle it; its `authorize` counts the failure).
 */
export async function credentialsRateLimit(request: Request): Promise<Response | null> {
  if (request.method !== "POST" || !new URL(request.url).pathname.endsWith("/callback/credentials")) return null;
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const email = form?.get("email");
  if (typeof email !== "string" || !email.trim()) return null;
  const wait = await signInRetryAfter(email, clientIp(request.headers));
  return wait === null ? null : tooManyRequests(wait);
}
