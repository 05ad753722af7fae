import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as START } from "./route";
import { db } from "@/lib/db/client";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { RUN_VALUE_LIMITS } from "@/lib/runs/input-limits";
import { startRun } from "@/lib/runs/service";

/**
 * Regressions (issue: inputs nested ~2,000 levels were accepted and then broke every attempt of the
 * run; ~6,000 levels answered 500). Run inputs past RUN_VALUE_LIMITS are refused by the run service
 * with a 400 that names the limit, from every trigger, and nothing is stored.
 */
useTestDatabase();
let owner: Awaited<ReturnType<typeof createTestUser>>;
let workflowId = "";

/** `{"a": {"a": … 1}}` as text, `levels` objects deep. */
const nestedText = (levels: number): string => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const post = (body: string) =>
  new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
    method: "POST",
    headers: { "content-type": "application/json", ...owner.auth },
    body,
  });
const runCount = () => db().run.count({ where: { workspaceId: owner.id } });

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  owner = await createTestUser();
  ({ workflowId } = await createTestWorkflow(owner.id, {
    inputs: [{ key: "doc", type: "json" }],
    nodes: [
      { id: "start", type: "start" },
      { id: "end", type: "end" },
    ],
    edges: [{ id: "e", source: "start", sourceHandle: "next", target: "end" }],
  }));
});
afterAll(async () => {
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeRunsQueue();
  await closeApiRedis();
  await closeRunLimiter();
});

describe("run input limits", () => {
  it.each([2_000, 6_000, 100_000])(
    "POST /api/workflows/:id/runs with inputs nested %i levels: 400 naming the limit, nothing stored",
    async (levels) => {
      const res = await START(post(`{"inputs":{"doc":${nestedText(levels)}}}`), {
        params: Promise.resolve({ id: workflowId }),
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("bad_request");
      expect(body.error.message).toMatch(/nests deeper than 64 levels .*WEFT_JSON_MAX_DEPTH/);
      expect(await runCount()).toBe(0);
    },
  );

  it("refuses inputs longer than the size limit with a 400 naming it", async () => {
    const long = "x".repeat(RUN_VALUE_LIMITS.maxChars);
    const res = await START(post(JSON.stringify({ inputs: { doc: long } })), {
      params: Promise.resolve({ id: workflowId }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("limit maxChars: 1000000");
    expect(await runCount()).toBe(0);
  });

  it("holds for triggers that do not come through HTTP (schedules, MCP, subflows all call startRun)", async () => {
    const doc = JSON.parse(nestedText(3_000)) as unknown;
    for (const trigger of ["schedule", "mcp", "webhook"] as const) {
      await expect(startRun(owner.id, workflowId, { inputs: { doc } }, { trigger })).rejects.toMatchObject({
        code: "bad_request",
        details: { limit: "maxDepth", max: RUN_VALUE_LIMITS.maxDepth },
      });
    }
    expect(await runCount()).toBe(0);
  });

  it("accepts inputs at the limit (the inputs object is level 1)", async () => {
    const atLimit = JSON.parse(nestedText(RUN_VALUE_LIMITS.maxDepth - 1)) as unknown;
    const started = await startRun(owner.id, workflowId, { inputs: { doc: atLimit } });
    expect(started.run.status).toBe("queued");
    const over = JSON.parse(nestedText(RUN_VALUE_LIMITS.maxDepth)) as unknown;
    await expect(startRun(owner.id, workflowId, { inputs: { doc: over } })).rejects.toMatchObject({
      code: "bad_request",
    });
    expect(await runCount()).toBe(1);
  });
});
