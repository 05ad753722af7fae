import { Worker } from "bullmq";
import { publishRunEvents } from "@/lib/events/publish";
import {
  createWorkerConnection,
  queuePrefix,
  RUNS_QUEUE,
  RUNS_WORKER_STALL_SETTINGS,
  type RunJobData,
} from "@/lib/queue";

/**
 * What B1's diagnostic workers (floor-worker.ts, replay-worker.ts) share: a BullMQ worker on the
 * run worker's queue, prefix and stall settings, the "worker ready" line test/helpers/worker.ts
 * waits for (no health port is served), and a graceful stop on SIGTERM/SIGINT (`close` after the
 * worker, e.g. a pool of its own).
 */
export async function startDiagnosticWorker(
  name: string,
  run: (job: RunJobData) => Promise<void>,
  close?: () => Promise<void>,
): Promise<void> {
  const worker = new Worker<RunJobData>(RUNS_QUEUE, async (job) => run(job.data), {
    connection: createWorkerConnection(name),
    prefix: queuePrefix(),
    concurrency: 20,
    name,
    ...RUNS_WORKER_STALL_SETTINGS,
  });
  await worker.waitUntilReady();
  process.stderr.write(`${JSON.stringify({ msg: "worker ready", healthPort: 0 })}\n`);
  const stop = () =>
    void worker
      .close()
      .then(close)
      .finally(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/** The run's last wake-up, as the driver publishes it: what B1's recorder waits for. */
export const publishFinished = (runId: string, seq: number): Promise<void> =>
  publishRunEvents(runId, [
    { seq, at: new Date(), event: { type: "run_finished", status: "succeeded", reason: "", outputs: {} } },
  ]);

/** Retries `attempt` every 2 ms, up to 50 times, while it answers null: a start job may arrive before its Run row is committed (startRun writes both at once). */
export async function whenRowLands<T>(attempt: () => Promise<T | null>): Promise<T | null> {
  for (let tries = 0; ; tries++) {
    const got = await attempt();
    if (got !== null || tries === 50) return got;
    await new Promise((r) => setTimeout(r, 2));
  }
}
