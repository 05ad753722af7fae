import "server-only";
import { env } from "@/lib/env";
import { guardedFetch, NetRefusedError } from "@/lib/net";
import { SIGNATURE_HEADER, signBody } from "./signature";

/** How one POST to a notifier went: `retry` for answers and failures worth another try later. */
export type SendResult =
  | { kind: "delivered"; responseStatus: number }
  | { kind: "retry"; responseStatus: number | null; error: string }
  | { kind: "rejected"; responseStatus: number | null; error: string };

/** Statuses a receiver may answer while it is briefly unable to take the notification. */
const RETRYABLE = new Set([408, 425, 429]);

/**
 * POSTs a JSON body to a notifier's URL, signed (X-Weft-Signature), through the SSRF guard
 * (public addresses only unless WEFT_NOTIFY_ALLOW_PRIVATE; the connection pinned to the checked
 * address; no redirects followed: a receiver's 3xx counts as a rejection). 10 s at most.
 */
export async function sendSigned(
  url: string,
  secret: string,
  event: string,
  id: string,
  body: string,
): Promise<SendResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const res = await guardedFetch(
      {
        url,
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Weft-Notifications/1",
          "x-weft-event": event,
          "x-weft-delivery": id,
          [SIGNATURE_HEADER.toLowerCase()]: signBody(secret, timestamp, body),
        },
        body,
      },
      { timeoutMs: 10_000, maxBytes: 64 * 1024, maxRedirects: 0, allowPrivate: env().WEFT_NOTIFY_ALLOW_PRIVATE },
    );
    if (res.status >= 200 && res.status < 300) return { kind: "delivered", responseStatus: res.status };
    const error = `The receiver answered ${res.status}${res.body ? `: ${res.body.slice(0, 200)}` : ""}`;
    if (res.status >= 500 || RETRYABLE.has(res.status)) return { kind: "retry", responseStatus: res.status, error };
    return { kind: "rejected", responseStatus: res.status, error };
  } catch (err) {
    if (err instanceof NetRefusedError)
      return { kind: "rejected", responseStatus: null, error: `Refused: ${err.message}` };
    return { kind: "retry", responseStatus: null, error: err instanceof Error ? err.message : String(err) };
  }
}
