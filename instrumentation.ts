/**
 * Runs once when the web server starts: stamps every request with its socket's address and drops
 * forwarding headers nobody trusted sent (lib/http/peer-stamp.ts), before Next routes it.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { stampPeerAddresses } = await import("@/lib/http/peer-stamp");
  stampPeerAddresses();
}
