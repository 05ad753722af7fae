/**
 * A TCP proxy that delays every chunk the server sends back by `delayMs` (order kept), so each
 * request/response round trip through it takes that much longer: a database or Redis "on the
 * network" instead of on loopback. Used by B1's remote-services table (bench/engine/index.ts), in a
 * process of its own so that neither arm's event loop pays for the forwarding.
 * CLI: tsx bench/engine/latency-proxy.ts <delayMs> <host:port> [<host:port> …] — prints one line
 * `latency proxy {"<host:port>": <local port>, …}` to stderr once every listener is up.
 */
import net from "node:net";

/** Forwards `from` to `to`, each chunk `delayMs` after it arrived (a chunk never overtakes an earlier one). */
function delayed(from: net.Socket, to: net.Socket, delayMs: number): void {
  let due = 0;
  from.on("data", (chunk) => {
    due = Math.max(Date.now() + delayMs, due);
    setTimeout(() => to.write(chunk), due - Date.now());
  });
  from.on("end", () => setTimeout(() => to.end(), Math.max(0, due - Date.now())));
}

/** Listens on a free local port; each connection is paired with one to `target`. `onAnswer` counts the server's chunks (diagnostics). */
export function latencyProxy(
  target: { host: string; port: number },
  delayMs: number,
  onAnswer?: () => void,
): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on("data", (chunk) => upstream.write(chunk));
    client.on("end", () => upstream.end());
    if (onAnswer) upstream.on("data", onAnswer);
    delayed(upstream, client, delayMs);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close);
    upstream.on("error", close);
    client.on("close", close);
    upstream.on("close", () => setTimeout(close, delayMs + 1));
  });
  return new Promise((resolve, reject) => server.listen(0, "127.0.0.1", () => resolve(server)).on("error", reject));
}

if (process.argv[1]?.endsWith("latency-proxy.ts")) {
  const [delay, ...targets] = process.argv.slice(2);
  const ports: Record<string, number> = {};
  for (const t of targets) {
    const [host, port] = t.split(":");
    const server = await latencyProxy({ host: host!, port: Number(port) }, Number(delay));
    ports[t] = (server.address() as net.AddressInfo).port;
  }
  process.stderr.write(`latency proxy ${JSON.stringify(ports)}\n`);
}
