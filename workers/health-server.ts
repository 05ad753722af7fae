import "server-only";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { db } from "@/lib/db/client";
import { METRICS_CONTENT_TYPE, renderMetrics } from "@/lib/metrics";
import { observeQueues } from "@/lib/metrics/queues";
import type { RunWorker } from "./run-worker";

/** What GET /health answers (200 when Redis and PostgreSQL are reachable, else 503). */
export interface WorkerHealth {
  status: "ok" | "degraded";
  worker: string;
  redis: string;
  db: "ok" | "error";
  activeJobs: number;
  reconcilerLeader: boolean;
  /** Age of this worker's last heartbeat write (workers/liveness.ts), ms; null before the first. */
  heartbeatAgeMs: number | null;
}

async function dbStatus(): Promise<"ok" | "error"> {
  try {
    const ping = db().$queryRaw`SELECT 1`;
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), 1_500).unref());
    await Promise.race([ping, timeout]);
    return "ok";
  } catch {
    return "error";
  }
}

/** Current health of a worker (Redis status, a PostgreSQL ping, jobs in flight). */
export async function workerHealth(worker: RunWorker): Promise<WorkerHealth> {
  const [redis, database] = [worker.redisStatus(), await dbStatus()];
  const ok = redis === "ready" && database === "ok";
  return {
    status: ok ? "ok" : "degraded",
    worker: worker.id,
    redis,
    db: database,
    activeJobs: worker.active(),
    reconcilerLeader: worker.reconciler?.leader ?? false,
    heartbeatAgeMs: worker.heartbeat.lastBeatAt === undefined ? null : Date.now() - worker.heartbeat.lastBeatAt,
  };
}

/**
 * A tiny HTTP server: GET /health → WorkerHealth as JSON; GET /metrics → the process's Prometheus
 * metrics (lib/metrics); anything else 404. Port 0 = any free port.
 */
export async function startHealthServer(
  worker: RunWorker,
  port: number,
  host = "127.0.0.1",
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  observeQueues();
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url?.split("?")[0] === "/metrics") {
      renderMetrics().then(
        (text) => res.writeHead(200, { "content-type": METRICS_CONTENT_TYPE }).end(text),
        () => res.writeHead(500).end(),
      );
      return;
    }
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/health") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    workerHealth(worker).then(
      (h) =>
        res.writeHead(h.status === "ok" ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify(h)),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return { server, port: actual, close: () => new Promise<void>((r) => server.close(() => r())) };
}
