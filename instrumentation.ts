/**
 * Runs once when the web server starts: stamps every request with its socket's address and drops
 * forwarding headers nobody trusted sent (lib/http/peer-stamp.ts), before Next routes it; installs
 * OpenTelemetry tracing when an OTLP endpoint is configured (lib/telemetry), so Next's request spans
 * and the runs they start share a trace.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { stampPeerAddresses } = await import("@/lib/http/peer-stamp");
  stampPeerAddresses();
  const { startTracing } = await import("@/lib/telemetry/tracing");
  await startTracing("weft-web");
}
