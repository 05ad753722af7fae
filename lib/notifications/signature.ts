import { createHmac, timingSafeEqual } from "node:crypto";

/** The header a notification's signature travels in. */
export const SIGNATURE_HEADER = "X-Weft-Signature";

/** How old a signed timestamp a receiver should accept (replays of older deliveries are refused). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const mac = (secret: string, timestamp: number, body: string) =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret>`: the receiver
 * recomputes it over the raw body, compares in constant time and checks that t is recent, which
 * proves the sender holds the secret and the body is unchanged, and makes a replay expire.
 */
export function signBody(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${mac(secret, timestamp, body)}`;
}

/** A receiver's check (also documents the scheme): true when `header` signs `body` with `secret` within the tolerance. */
export function verifySignature(
  secret: string,
  header: string | null,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const parts = Object.fromEntries((header ?? "").split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  const given = parts.v1 ?? "";
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > SIGNATURE_TOLERANCE_SECONDS || !/^[0-9a-f]{64}$/.test(given))
    return false;
  return timingSafeEqual(Buffer.from(mac(secret, t, body), "hex"), Buffer.from(given, "hex"));
}
