import { Worker, type Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testQueuePrefix } from "@/test/db";
import { closeApiRedis, createApiConnection, createWorkerConnection, withRedisDeadline } from "./connection";
import type { RunJobData } from "./jobs";
import { RUNS_QUEUE } from "./names";
import { closeRunsQueue, enqueueRun, hasLiveRunJob, runsQueue } from "./runs-queue";

const prefix = testQueuePrefix();

beforeAll(() => {
  process.env.WEFT_QUEUE_PREFIX = prefix;
});

afterAll(async () => {
  await runsQueue().obliterate({ force: true });
  await closeRunsQueue();
  await closeApiRedis();
});

describe("enqueueRun", () => {
  it("dedupes a waiting job, keeps one follow-up while active, and allows re-enqueue after completion", async () => {
    const first = await enqueueRun("r1", "start");
    const again = await enqueueRun("r1", "resume");
    expect(again.jobId).toBe(first.jobId);
    expect(again.deduplicated).toBe(true);
    expect(await runsQueue().getWaitingCount()).toBe(1);
    expect(await hasLiveRunJob("r1")).toBe(true);

    const seen: RunJobData[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const isActive = new Promise<void>((r) => (started = r));
    const conn = createWorkerConnection("test-worker");
    const worker = new Worker<RunJobData>(
      RUNS_QUEUE,
      async (job: Job<RunJobData>) => {
        seen.push(job.data);
        if (seen.length === 1) {
          started();
          await gate;
        }
      },
      { connection: conn, prefix, concurrency: 4 },
    );
    await isActive;
    // while active: two enqueues collapse into one follow-up
    await enqueueRun("r1", "cancel");
    await enqueueRun("r1", "cancel");
    release();
    await waitFor(async () => seen.length === 2 && (await runsQueue().getActiveCount()) === 0);
    expect(seen.map((d) => d.reason)).toEqual(["start", "cancel"]);

    // after completion the run can be dispatched again
    await waitFor(async () => !(await hasLiveRunJob("r1")));
    const later = await enqueueRun("r1", "resume");
    expect(later.deduplicated).toBe(false);
    await waitFor(async () => seen.length === 3);
    expect(seen[2]?.reason).toBe("resume");
    await worker.close();
    conn.disconnect();
  });
});

describe("fail-fast API connection (D5)", () => {
  it("rejects within 2 s when Redis is unreachable", async () => {
    const saved = process.env.REDIS_URL;
    process.env.REDIS_URL = "redis://127.0.0.1:1";
    const conn = createApiConnection("test-dead");
    const t0 = Date.now();
    await expect(withRedisDeadline("ping", conn.ping())).rejects.toMatchObject({ code: "unavailable" });
    expect(Date.now() - t0).toBeLessThan(2_000);
    conn.disconnect();
    if (saved === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = saved;
  });
});

async function waitFor(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
