import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkflow } from "@/lib/db/workflows";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { closeRunLimiter } from "@/lib/runs/limits";
import { createTestUser } from "@/lib/runs/test-fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { getRunDashboard } from "./dashboard";
import { startRun } from "./service";

/** getRunDashboard: what the owner's run page starts from (no worker runs here). */
useTestDatabase();
let owner: string;
const child: WorkflowInput = {
  name: "Summarise",
  nodes: [{ id: "start", type: "start" }, { id: "end", type: "end" }],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};
const parentOf = (ids: string[]): WorkflowInput => ({
  name: "Parent",
  nodes: [{ id: "start", type: "start" }, ...ids.map((workflowId, i) => ({ id: `sub${i}`, type: "subflow" as const, workflowId, inputs: {} })), { id: "end", type: "end" }],
  edges: [
    ...ids.map((_, i) => ({ id: `in${i}`, source: "start", sourceHandle: "next", target: `sub${i}` })),
    ...ids.map((_, i) => ({ id: `out${i}`, source: `sub${i}`, sourceHandle: "done", target: "end" })),
  ],
});

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  owner = (await createTestUser()).id;
});
afterAll(async () => {
  await runsQueue().obliterate({ force: true }).catch(() => undefined);
  await closeRunsQueue();
  await closeApiRedis();
  await closeRunLimiter();
});

describe("getRunDashboard", () => {
  it("names the owner's workflows the document's subflow nodes run, before any of them started; another user's is left out", async () => {
    const mine = await createWorkflow(owner, child);
    const theirs = await createWorkflow((await createTestUser()).id, { ...child, name: "Not yours" });
    const parent = await createWorkflow(owner, parentOf([mine.id, theirs.id]));
    const { run } = await startRun(owner, parent.id, { inputs: {} });
    const dashboard = await getRunDashboard(owner, run.id);
    expect(dashboard.subflowNames).toEqual({ [mine.id]: "Summarise" });
    expect(dashboard.doc?.nodes.filter((n) => n.type === "subflow")).toHaveLength(2);
  });

  it("reads no names for a workflow without subflow nodes", async () => {
    const wf = await createWorkflow(owner, child);
    const { run } = await startRun(owner, wf.id, { inputs: {} });
    expect((await getRunDashboard(owner, run.id)).subflowNames).toEqual({});
  });
});
