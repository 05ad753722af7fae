import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { closeApiRedis, closeExperimentsQueue, closeNotificationsQueue, closeRunsQueue, runsQueue } from "@/lib/queue";
import { startRun } from "@/lib/runs/service";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import { GET } from "./route";

useTestDatabase();
const TOKEN = "metrics-token-0123456789";
let owner = "";

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  owner = (await createTestUser()).id;
});
afterAll(async () => {
  delete process.env.WEFT_METRICS_TOKEN;
  resetEnvCache();
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await Promise.all([closeRunsQueue(), closeExperimentsQueue(), closeNotificationsQueue()]);
  await closeApiRedis();
  await closeRunLimiter();
});

const scrape = (authorization?: string) =>
  GET(new Request("http://localhost/api/metrics", authorization ? { headers: { authorization } } : {}));

describe("GET /api/metrics", () => {
  it("does not exist unless WEFT_METRICS_TOKEN is set; then asks for that bearer token", async () => {
    delete process.env.WEFT_METRICS_TOKEN;
    resetEnvCache();
    expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(404);
    process.env.WEFT_METRICS_TOKEN = TOKEN;
    resetEnvCache();
    const refused = await scrape();
    expect(refused.status).toBe(401);
    expect(await refused.text()).not.toContain("weft_");
    expect((await scrape(`Bearer ${TOKEN}x`)).status).toBe(401);
  });

  it("counts the runs this process started, by trigger, and reads the queues at scrape time", async () => {
    process.env.WEFT_METRICS_TOKEN = TOKEN;
    resetEnvCache();
    const started = async () => {
      const res = await scrape(`Bearer ${TOKEN}`);
      expect(res.status).toBe(200);
      const text = await res.text();
      return { text, n: Number(/^weft_runs_started_total\{trigger="api"\} (\d+)$/m.exec(text)?.[1] ?? 0) };
    };
    const before = await started();
    const { workflowId } = await createTestWorkflow(owner);
    await startRun(owner, workflowId, { inputs: {} }, { trigger: "api" });
    await startRun(owner, workflowId, { inputs: {} }, { trigger: "api" });
    const after = await started();
    expect(after.n - before.n).toBe(2);
    // no worker here: both runs wait in the runs queue
    expect(
      Number(/^weft_queue_jobs\{queue="runs",state="waiting"\} (\d+)$/m.exec(after.text)?.[1]),
    ).toBeGreaterThanOrEqual(2);
    expect(after.text).toMatch(/^weft_sse_connections \d+$/m);
  });
});
