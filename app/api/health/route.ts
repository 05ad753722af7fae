import { checkHealth } from "@/lib/http/health";

export const dynamic = "force-dynamic";

/** Liveness of the app's dependencies: 200 when PostgreSQL and Redis answer, else 503 naming the failures. */
export async function GET(): Promise<Response> {
  const report = await checkHealth();
  return Response.json(report, { status: report.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
