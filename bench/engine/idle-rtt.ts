/**
 * B1 profiling aid (not part of the benchmark): what one round trip to PostgreSQL (`SELECT 1`) and
 * Redis (`PING`) costs back to back and after the client and server have been idle a while. On
 * this VM a round trip that wakes sleeping processes costs several times a hot one, and B1's
 * interleaving makes our arm's run start with such hops in four processes (bench/history.md).
 * Usage: tsx --conditions=react-server bench/engine/idle-rtt.ts [idleMs=20] [n=200]
 */
import pg from "pg";
import { Redis } from "ioredis";
import { median } from "../stats";

const idleMs = Number(process.argv[2] ?? 20);
const n = Number(process.argv[3] ?? 200);
const db = new pg.Client({
  connectionString: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
});
await db.connect();
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const probes: Record<string, () => Promise<unknown>> = {
  "PostgreSQL SELECT 1": () => db.query("SELECT 1"),
  "Redis PING": () => redis.ping(),
};
for (const [name, probe] of Object.entries(probes)) {
  for (const idle of [0, idleMs]) {
    const xs: number[] = [];
    for (let i = 0; i < n; i++) {
      if (idle) await new Promise((r) => setTimeout(r, idle));
      const t0 = performance.now();
      await probe();
      xs.push(performance.now() - t0);
    }
    process.stdout.write(
      `${name.padEnd(20)} ${idle ? `after ${idle} ms idle` : "back to back"}: median ${median(xs.slice(10)).toFixed(3)} ms\n`,
    );
  }
}
await db.end();
redis.disconnect();
