import "server-only";
import { type TestResult } from "@/components/settings/types";
import { fetchModelList, UNREACHABLE } from "@/lib/providers/models";

export { UNREACHABLE };

/**
 * GET {baseUrl}/models with the key, through the same guard as the provider's model calls (the
 * address pinned, no redirects, 5 s): proves the URL and the key work. Says how many models the
 * endpoint lists, or what went wrong — by status only, never the endpoint's own words.
 */
export async function testConnection(baseUrl: string, apiKey: string | null): Promise<TestResult> {
  const list = await fetchModelList(baseUrl, apiKey);
  if (!list.ok) return list;
  const n = list.models.length;
  return { ok: true, message: `Connected — ${n} model${n === 1 ? "" : "s"} available.` };
}
