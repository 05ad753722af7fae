// Reachability checks for PostgreSQL and Redis with a message that says how to start each one.
// Plain Node (no dependencies) so it runs before `npm ci`.
import net from "node:net";

/** Opens a TCP connection (and for Redis sends PING) with a short timeout; resolves true/false. */
function probe(host, port, payload, expect, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => {
      if (!payload) return done(true);
      socket.write(payload);
    });
    socket.on("data", (buf) => done(expect.test(buf.toString())));
  });
}

const HOW = {
  postgres: [
    "PostgreSQL is not reachable at {where}.",
    "  Start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "  (or with Docker: docker compose up -d postgres), or point DATABASE_URL at your server in .env.",
  ],
  redis: [
    "Redis is not reachable at {where}.",
    "  Start it: redis-server --daemonize yes --port 6379 --save '' --appendonly no",
    "  (or with Docker: docker compose up -d redis), or point REDIS_URL at your server in .env.",
  ],
};

/** Returns a list of human messages for the services that are down (empty when all are up). */
export async function checkServices(env = process.env) {
  const pg = new URL(env.DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/weft");
  const redis = new URL(env.REDIS_URL || "redis://127.0.0.1:6379");
  const problems = [];
  const pgUp = await probe(pg.hostname, Number(pg.port || 5432));
  if (!pgUp) problems.push(HOW.postgres.join("\n").replace("{where}", `${pg.hostname}:${pg.port || 5432}`));
  const auth = redis.password ? `AUTH ${decodeURIComponent(redis.password)}\r\n` : "";
  const redisUp = await probe(redis.hostname, Number(redis.port || 6379), `${auth}PING\r\n`, /PONG|\+OK/);
  if (!redisUp) problems.push(HOW.redis.join("\n").replace("{where}", `${redis.hostname}:${redis.port || 6379}`));
  return problems;
}
