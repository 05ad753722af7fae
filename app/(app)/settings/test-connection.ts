import "server-only";
import { z } from "zod";
import { type TestResult } from "@/components/settings/types";

const modelsResponse = z.object({ data: z.array(z.object({ id: z.string() })) });

/**
 * GET {baseUrl}/models with the key (5 s deadline, no redirects followed): proves the URL and the
 * key work. The answer names how many models the endpoint lists, or what went wrong.
 */
export async function testConnection(baseUrl: string, apiKey: string | null): Promise<TestResult> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}/models`, {
      headers: { accept: "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      redirect: "manual",
      signal: AbortSignal.timeout(5000),
      cache: "no-store",
    });
  } catch (err) {
    const timedOut = err instanceof Error && err.name === "TimeoutError";
    return { ok: false, message: timedOut ? "No answer within 5 seconds." : `Could not connect (${err instanceof Error ? err.message : "network error"}).` };
  }
  if (res.status === 401 || res.status === 403) return { ok: false, message: `The endpoint refused the key (HTTP ${res.status}).` };
  if (!res.ok) return { ok: false, message: `The endpoint answered HTTP ${res.status}.` };
  const body = modelsResponse.safeParse(await res.json().catch(() => null));
  if (!body.success) return { ok: false, message: "Connected, but /models did not answer like an OpenAI-compatible API." };
  const n = body.data.data.length;
  return { ok: true, message: `Connected — ${n} model${n === 1 ? "" : "s"} available.` };
}
