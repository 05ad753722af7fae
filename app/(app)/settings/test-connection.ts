import "server-only";
import { z } from "zod";
import { type TestResult } from "@/components/settings/types";
import { providerFetch } from "@/lib/llm/provider-fetch";

const modelsResponse = z.object({ data: z.array(z.object({ id: z.string() })) });

/** Largest /models answer read (a list of model ids). */
const MAX_MODELS_BYTES = 1_048_576;

/**
 * What "Test connection" answers for EVERY target it could not talk to: refused by the guard (a
 * private address this server does not allow), unknown host, refused or reset connection, TLS
 * failure, or no answer in time. One message for all, so the button cannot map hosts and ports.
 */
export const UNREACHABLE =
  "Could not reach the endpoint. Check the base URL (private and loopback addresses work only where the operator allows them).";

async function readCapped(res: Response): Promise<unknown> {
  const reader = res.body?.getReader();
  if (!reader) return null;
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if ((size += value.byteLength) > MAX_MODELS_BYTES) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    parts.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(parts).toString("utf8")) as unknown;
  } catch {
    return null;
  }
}

/**
 * GET {baseUrl}/models with the key, through the same guard as the provider's model calls (the
 * address pinned, no redirects, 5 s): proves the URL and the key work. Says how many models the
 * endpoint lists, or what went wrong — by status only, never the endpoint's own words.
 */
export async function testConnection(baseUrl: string, apiKey: string | null): Promise<TestResult> {
  let res: Response;
  try {
    res = await providerFetch(`${baseUrl}/models`, {
      headers: { accept: "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    return { ok: false, message: UNREACHABLE };
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    return {
      ok: false,
      message: `The endpoint answered with a redirect (HTTP ${res.status}); enter the URL it redirects to.`,
    };
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    return { ok: false, message: `The endpoint refused the key (HTTP ${res.status}).` };
  }
  if (!res.ok) {
    await res.body?.cancel();
    return { ok: false, message: `The endpoint answered HTTP ${res.status}.` };
  }
  const body = modelsResponse.safeParse(await readCapped(res).catch(() => null));
  if (!body.success)
    return { ok: false, message: "Connected, but /models did not answer like an OpenAI-compatible API." };
  const n = body.data.data.length;
  return { ok: true, message: `Connected — ${n} model${n === 1 ? "" : "s"} available.` };
}
