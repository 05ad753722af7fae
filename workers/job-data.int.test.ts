import { afterAll, beforeAll, expect, it } from "vitest";
import { closeApiRedis, closeRunsQueue, RUN_JOB_OPTIONS, runsQueue } from "@/lib/queue";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { startRunWorker } from "./run-worker";

// A job whose data does not fit its schema fails at once: a retry would parse the same data again.
useTestDatabase();

beforeAll(() => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
});
afterAll(async () => {
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeRunsQueue();
  await closeApiRedis();
});

it("a run job with invalid data fails on its first attempt, naming the field, and is not retried", async () => {
  const worker = startRunWorker({ reconcileIntervalMs: 0, concurrency: 1 });
  try {
    expect(RUN_JOB_OPTIONS.attempts).toBeGreaterThan(1);
    const job = await runsQueue().add(
      "run",
      { runId: 42, reason: "start", enqueuedAt: Date.now() } as never,
      RUN_JOB_OPTIONS,
    );
    await expect
      .poll(async () => (await runsQueue().getJob(job.id!))?.failedReason, { timeout: 15_000, interval: 50 })
      .toMatch(/invalid runs job data at runId/);
    const failed = await runsQueue().getJob(job.id!);
    expect(failed?.attemptsMade).toBe(1);
    expect(await failed?.getState()).toBe("failed");
  } finally {
    await worker.close();
  }
});
