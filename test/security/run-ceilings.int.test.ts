import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createWorkflow, saveWorkflowVersion, updateWorkflow } from "@/lib/db/workflows";
import { resetEnvCache } from "@/lib/env";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { startRun } from "@/lib/runs/service";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";

useTestDatabase();
let owner: string;

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  resetEnvCache();
  owner = (await createTestUser()).id;
});
afterAll(async () => {
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await Promise.all([closeRunsQueue(), closeApiRedis(), closeRunLimiter()]);
});

/** An evaluator loop: draft → check, check sends it back ≤ maxIterations times. */
const looping = (limits: Record<string, number>, maxIterations: number, timeoutMs?: number): WorkflowInput => ({
  name: "Loop",
  limits,
  agents: [{ key: "a", name: "A", instructions: "" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "draft", type: "agent", agent: "a", ...(timeoutMs ? { timeoutMs } : {}) },
    {
      id: "check",
      type: "agent",
      agent: "a",
      branches: [
        { id: "ok", label: "OK", condition: "" },
        { id: "again", label: "Again", condition: "" },
      ],
    },
    { id: "end", type: "end" },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "draft" },
    { id: "e2", source: "draft", sourceHandle: "done", target: "check" },
    { id: "e3", source: "check", sourceHandle: "ok", target: "end" },
    {
      id: "back",
      source: "check",
      sourceHandle: "again",
      target: "draft",
      kind: "loop",
      maxIterations,
      onExhausted: "continue",
    },
  ],
});

const huge = { maxSteps: 1e9, maxIterationsPerLoop: 1e9, runTimeoutMs: 1e12, maxTurnsPerVisit: 1e6 };

describe("run limit ceilings (finding 5)", () => {
  it("finding 5: limits above the server's ceilings are refused when a workflow is saved, naming each limit and its setting", async () => {
    const refusal = await createWorkflow(owner, looping(huge, 1e9, 1e12)).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: "invalid_workflow", status: 422 });
    const issues = (
      refusal as { details: { issues: { message: string; field?: string; edgeId?: string; nodeId?: string }[] } }
    ).details.issues;
    expect(issues.map((i) => i.field ?? i.edgeId ?? i.nodeId)).toEqual([
      "limits.maxSteps",
      "limits.maxIterationsPerLoop",
      "limits.runTimeoutMs",
      "limits.maxTurnsPerVisit",
      "back",
      "draft",
    ]);
    expect(issues[0]!.message).toBe(
      "limits.maxSteps is 1000000000; this server allows at most 1000 (WEFT_MAX_RUN_STEPS).",
    );
    expect(await db().workflow.count({ where: { workspaceId: owner } })).toBe(0);

    const ok = await createWorkflow(owner, looping({ maxSteps: 1000 }, 100));
    await expect(
      updateWorkflow(owner, ok.id, { draft: looping({}, 1e9) as Record<string, unknown> }),
    ).rejects.toMatchObject({ code: "invalid_workflow" });
    const stored = await db().workflow.findUniqueOrThrow({ where: { id: ok.id } });
    expect((stored.draft as { edges: { maxIterations?: number }[] }).edges.at(-1)?.maxIterations).toBe(100);
  });

  it("finding 5: a version above the ceilings (saved before they were lowered) is refused at start, and nothing is stored", async () => {
    const { workflowId } = await createTestWorkflow(owner, looping({ runTimeoutMs: 30 * 86_400_000 }, 3));
    const before = await db().run.count();
    await expect(startRun(owner, workflowId, { version: 1 })).rejects.toMatchObject({
      code: "invalid_workflow",
      message: expect.stringContaining(
        "limits.runTimeoutMs is 2592000000; this server allows at most 21600000 (WEFT_MAX_RUN_TIMEOUT_MS)",
      ),
    });
    expect(await db().run.count()).toBe(before);
    await expect(saveWorkflowVersion(owner, workflowId)).rejects.toMatchObject({ code: "invalid_workflow" });
  });

  it("the operator sets the ceilings", async () => {
    process.env.WEFT_MAX_RUN_STEPS = "5000";
    resetEnvCache();
    try {
      expect(await createWorkflow(owner, looping({ maxSteps: 5000 }, 3))).toMatchObject({ name: "Loop" });
      await expect(createWorkflow(owner, looping({ maxSteps: 5001 }, 3))).rejects.toMatchObject({
        message: expect.stringContaining("at most 5000"),
      });
    } finally {
      delete process.env.WEFT_MAX_RUN_STEPS;
      resetEnvCache();
    }
  });
});
