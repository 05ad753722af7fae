/**
 * The client's IP for rate limiting: the first x-forwarded-for entry (Next's server sets it), then
 * x-real-ip, else "unknown". Behind a proxy that appends to x-forwarded-for, configure it to overwrite.
 */
export function clientIp(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const ip = forwarded || headers.get("x-real-ip")?.trim() || "unknown";
  return ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1").toLowerCase();
}
