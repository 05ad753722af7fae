import { closeLiveTextWriter } from "@/lib/events/live-text-writer";
import { disconnectDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { closeRunEventHub } from "@/lib/events/hub";
import { createLogger } from "@/lib/logger";
import { startTracing, stopTracing } from "@/lib/telemetry/tracing";
import { closeApiRedis, closeRunsQueue } from "@/lib/queue";
import type { PortOverrides } from "@/workers/engine-ports";
import { startHealthServer } from "@/workers/health-server";
import { startRunWorker } from "@/workers/run-worker";
import { startScheduleWorker } from "@/workers/schedule-worker";
import { startNotificationWorker } from "@/workers/notification-worker";
import { startExperimentWorker } from "@/workers/experiment-worker";

/**
 * The run worker process: consumes the runs queue, reconciles orphaned runs, fires schedules
 * (lib/schedules, timers rebuilt from PostgreSQL), delivers run notifications (lib/notifications,
 * its outbox swept on the same period), drives experiments (lib/evals, their own queue), serves GET /health on
 * WEFT_WORKER_HEALTH_PORT. SIGTERM/SIGINT stop it gracefully (exit 0); SIGKILL is safe too, since
 * PostgreSQL holds every committed step. `workers/main.ts` runs it with the real ports;
 * `overrides` swap a port (B1's engine-overhead arm gives every node a trivial model,
 * bench/engine/worker.ts).
 */
const log = createLogger({ component: "worker-main" });

export async function runWorkerProcess(overrides: PortOverrides = {}): Promise<void> {
  const e = env();
  // traces only when an OTLP endpoint is configured (lib/telemetry); otherwise nothing is installed
  const tracing = await startTracing("weft-worker");
  const worker = startRunWorker({
    ...overrides,
    concurrency: e.WEFT_WORKER_CONCURRENCY,
    graceMs: e.WEFT_WORKER_SHUTDOWN_GRACE_MS,
    reconcileIntervalMs: e.WEFT_RECONCILE_INTERVAL_MS,
  });
  const schedules = startScheduleWorker({ reconcileIntervalMs: e.WEFT_RECONCILE_INTERVAL_MS });
  const notifications = startNotificationWorker({ sweepIntervalMs: e.WEFT_RECONCILE_INTERVAL_MS });
  const experiments = startExperimentWorker({ sweepIntervalMs: e.WEFT_RECONCILE_INTERVAL_MS });
  const health = await startHealthServer(worker, e.WEFT_WORKER_HEALTH_PORT, e.WEFT_WORKER_HEALTH_HOST);
  log.info("worker ready", {
    id: worker.id,
    healthPort: health.port,
    concurrency: e.WEFT_WORKER_CONCURRENCY,
    tracing,
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("signal received; shutting down", { signal });
    const hardStop = setTimeout(() => {
      log.error("shutdown took too long; exiting", { graceMs: e.WEFT_WORKER_SHUTDOWN_GRACE_MS });
      process.exit(1);
    }, e.WEFT_WORKER_SHUTDOWN_GRACE_MS + 15_000);
    hardStop.unref();
    (async () => {
      await experiments.close();
      await worker.close();
      await schedules.close();
      await notifications.close();
      await health.close();
      await closeRunsQueue();
      await closeApiRedis();
      await closeLiveTextWriter();
      await closeRunEventHub();
      await disconnectDb();
      await stopTracing();
    })().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error("shutdown failed", { err });
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/** Starts the process; a failure to start is logged and exits 1. */
export function launchWorkerProcess(overrides: PortOverrides = {}): void {
  runWorkerProcess(overrides).catch((err: unknown) => {
    log.error("worker failed to start", { err });
    process.exit(1);
  });
}
