import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { sseStats } from "@/lib/events/sse";
import { METRICS_CONTENT_TYPE, metrics, renderMetrics } from "@/lib/metrics";
import { observeQueues } from "@/lib/metrics/queues";

export const dynamic = "force-dynamic";

const digest = (s: string) => createHash("sha256").update(s).digest();

/**
 * The web process's Prometheus metrics (lib/metrics; the worker serves its own on its health port).
 * Off unless WEFT_METRICS_TOKEN is set: then a scrape sends it as `Authorization: Bearer <token>`
 * (401 without it). Off, the route answers 404 as if it did not exist.
 */
export async function GET(request: Request): Promise<Response> {
  const token = env().WEFT_METRICS_TOKEN;
  if (!token) return Response.json({ error: "not found" }, { status: 404 });
  const given = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!timingSafeEqual(digest(given), digest(token)))
    return Response.json(
      { error: "a metrics scrape needs the bearer token set in WEFT_METRICS_TOKEN" },
      { status: 401, headers: { "WWW-Authenticate": "Bearer" } },
    );
  observeQueues();
  metrics().sseConnections.set(sseStats().open);
  return new Response(await renderMetrics(), {
    headers: { "content-type": METRICS_CONTENT_TYPE, "cache-control": "no-store" },
  });
}
