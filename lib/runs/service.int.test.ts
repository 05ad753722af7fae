import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createWorkflow, deleteWorkflow, saveWorkflowVersion, updateWorkflow } from "@/lib/db/workflows";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { createTestUser } from "@/test/fixtures";
import { workflowSchema, type WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { checkedVersionCount } from "@/lib/workflow/checked-versions";
import { getRunDashboard } from "@/lib/run-views/dashboard";
import { getRun, rerun, startRun } from "./service";
import { readRunTarget, runTargetReadCount } from "@/lib/run-store/run-insert";
import { knownTarget } from "./known-targets";

/** startRun: which version a run gets, and the run it answers (no worker runs here). */
useTestDatabase();
let owner: string;
const doc: WorkflowInput = {
  name: "Greeter",
  inputs: [{ key: "topic", type: "string" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end" },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};
const versions = async (workflowId: string) =>
  (await db().workflowVersion.findMany({ where: { workflowId }, orderBy: { version: "asc" } })).map((v) => v.version);

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  owner = (await createTestUser()).id;
});
afterAll(async () => {
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeRunsQueue();
  await closeApiRedis();
  await closeRunLimiter();
});

describe("startRun", () => {
  it("saves the draft as version 1 on the first run, reuses it while the draft is unchanged, saves version 2 after an edit", async () => {
    const wf = await createWorkflow(owner, doc);
    const first = await startRun(owner, wf.id, { inputs: { topic: "owls" } });
    expect(first.dispatched).toBe(true);
    expect(first.run).toMatchObject({
      status: "queued",
      version: 1,
      workflowId: wf.id,
      workflowName: "Greeter",
      inputs: { topic: "owls" },
      steps: [],
      lastSeq: 0,
      stepCount: 0,
    });
    const again = await startRun(owner, wf.id, { inputs: { topic: "bats" } });
    expect(again.run.workflowVersionId).toBe(first.run.workflowVersionId);
    expect(await versions(wf.id)).toEqual([1]);
    await updateWorkflow(owner, wf.id, { draft: { ...doc, description: "edited" } });
    const edited = await startRun(owner, wf.id, { inputs: { topic: "owls" } });
    expect(edited.run.version).toBe(2);
    expect(await versions(wf.id)).toEqual([1, 2]);
  });

  it("starts a workflow it started before without reading its target; a target changed since (renamed, saved again, new inputs, deleted) writes nothing and is read again", async () => {
    const wf = await createWorkflow(owner, doc);
    const first = (await startRun(owner, wf.id, { inputs: { topic: "a" } })).run;
    expect(knownTarget(owner, wf.id)?.versionId).toBe(first.workflowVersionId);
    const reads = runTargetReadCount();
    const second = (await startRun(owner, wf.id, { inputs: { topic: "b" } })).run;
    expect(runTargetReadCount()).toBe(reads);
    expect(await getRun(owner, second.id)).toEqual(second);
    expect(second).toMatchObject({
      workflowVersionId: first.workflowVersionId,
      version: 1,
      workflowName: "Greeter",
      inputs: { topic: "b" },
    });
    // its job names the run and nothing else: the worker reads what the start wrote from its row
    const job = (await runsQueue().getJobs(["waiting", "prioritized"])).find((j) => j.data.runId === second.id);
    expect(job?.data).toEqual({ runId: second.id, reason: "start", enqueuedAt: expect.any(Number) });

    await updateWorkflow(owner, wf.id, { draft: { ...doc, name: "Greeter 2" } });
    const renamed = (await startRun(owner, wf.id, { inputs: { topic: "c" } })).run;
    expect(runTargetReadCount()).toBe(reads + 1);
    expect(await getRun(owner, renamed.id)).toEqual(renamed);
    expect(renamed).toMatchObject({ workflowName: "Greeter 2", version: 2 });

    await saveWorkflowVersion(owner, wf.id, "saved by hand");
    const saved = (await startRun(owner, wf.id, { inputs: { topic: "d" } })).run;
    expect(saved.version).toBe(3);
    expect(runTargetReadCount()).toBe(reads + 2);

    // new input fields: the kept document refuses them, so the start reads the target (no false 400)
    await updateWorkflow(owner, wf.id, {
      draft: { ...doc, name: "Greeter 2", inputs: [...doc.inputs!, { key: "lang", type: "string", required: true }] },
    });
    const widened = (await startRun(owner, wf.id, { inputs: { topic: "e", lang: "fr" } })).run;
    expect(widened).toMatchObject({ version: 4, inputs: { topic: "e", lang: "fr" } });
    await expect(startRun(owner, wf.id, { inputs: { topic: "f" } })).rejects.toMatchObject({ code: "bad_request" });

    expect(await deleteWorkflow(owner, wf.id)).toBe(true); // its runs go with it
    const runs = await db().run.count({ where: { workspaceId: owner } });
    await expect(startRun(owner, wf.id, { inputs: { topic: "g", lang: "fr" } })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await db().run.count({ where: { workspaceId: owner } })).toBe(runs);
    expect(knownTarget(owner, wf.id)).toBeUndefined();
  });

  it("answers the run exactly as a later read of it shows it (before any worker touched it)", async () => {
    const wf = await createWorkflow(owner, doc);
    const { run } = await startRun(owner, wf.id, { inputs: { topic: "owls" } });
    expect(await getRun(owner, run.id)).toEqual(run);
  });

  it("records what started the run: manual unless told, the origin given (its label cut to 120 characters), a re-run naming the run it repeats", async () => {
    const wf = await createWorkflow(owner, doc);
    const manual = (await startRun(owner, wf.id, { inputs: { topic: "a" } })).run;
    expect(manual).toMatchObject({ trigger: "manual", triggerLabel: null });
    const hooked = (
      await startRun(owner, wf.id, { inputs: { topic: "b" } }, { trigger: "webhook", label: "x".repeat(300) })
    ).run;
    expect(await getRun(owner, hooked.id)).toMatchObject({ trigger: "webhook", triggerLabel: "x".repeat(120) });
    const again = (await rerun(owner, manual.id)).run;
    expect(await getRun(owner, again.id)).toMatchObject({
      trigger: "rerun",
      triggerLabel: manual.id,
      inputs: { topic: "a" },
    });
  });

  it("an idempotency key starts one run: a repeat, or any number of concurrent starts with it, answer that run", async () => {
    const wf = await createWorkflow(owner, doc);
    const first = await startRun(
      owner,
      wf.id,
      { inputs: { topic: "a" } },
      { trigger: "api", idempotencyKey: "test:k1" },
    );
    expect(first.replayed).toBeUndefined();
    const again = await startRun(
      owner,
      wf.id,
      { inputs: { topic: "different" } },
      { trigger: "api", idempotencyKey: "test:k1" },
    );
    expect(again).toMatchObject({ replayed: true, run: { id: first.run.id, inputs: { topic: "a" } } });
    const racing = await Promise.all(
      Array.from({ length: 6 }, () =>
        startRun(owner, wf.id, { inputs: { topic: "b" } }, { trigger: "api", idempotencyKey: "test:k2" }),
      ),
    );
    expect(new Set(racing.map((r) => r.run.id)).size).toBe(1);
    expect(racing.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await db().run.count({ where: { workflowVersion: { workflowId: wf.id } } })).toBe(2);
    const unkeyed = await startRun(owner, wf.id, { inputs: { topic: "c" } });
    expect(unkeyed.run.id).not.toBe(first.run.id);
  });

  it("a stored version that predates a schema default still counts as the unchanged draft", async () => {
    const wf = await createWorkflow(owner, doc);
    const parsed = workflowSchema.parse(doc) as Record<string, unknown>;
    const { limits, ...older } = parsed; // as saved before `limits` had defaults
    expect(limits).toBeDefined();
    await db().workflowVersion.create({ data: { workflowId: wf.id, version: 1, document: older as object } });
    await db().workflow.update({ where: { id: wf.id }, data: { draft: older as object } });
    const { run } = await startRun(owner, wf.id, { inputs: { topic: "owls" } });
    expect(run.version).toBe(1);
    expect(await versions(wf.id)).toEqual([1]);
  });

  it("runs an explicit saved version; an unknown version, another user's workflow and bad inputs are refused with nothing written", async () => {
    const wf = await createWorkflow(owner, doc);
    await startRun(owner, wf.id, { inputs: { topic: "a" } });
    await updateWorkflow(owner, wf.id, { draft: { ...doc, description: "v2" } });
    await startRun(owner, wf.id, { inputs: { topic: "b" } });
    const v1 = await startRun(owner, wf.id, { inputs: { topic: "c" }, version: 1 });
    expect(v1.run.version).toBe(1);
    const before = await db().run.count({ where: { workspaceId: owner } });
    await expect(startRun(owner, wf.id, { inputs: {}, version: 9 })).rejects.toMatchObject({
      code: "not_found",
      message: "Version 9 not found",
    });
    const stranger = (await createTestUser()).id;
    await expect(startRun(stranger, wf.id, { inputs: { topic: "x" } })).rejects.toMatchObject({ code: "not_found" });
    await expect(startRun(owner, wf.id, { inputs: { topic: 42 } })).rejects.toMatchObject({ code: "bad_request" });
    expect(await db().run.count({ where: { workspaceId: owner } })).toBe(before);
  });

  it("reads the draft only when it differs from the latest version, whose check is kept per version", async () => {
    const wf = await createWorkflow(owner, doc);
    expect(await readRunTarget(owner, wf.id)).toMatchObject({
      draftIsVersion: false,
      versionId: null,
      draft: { name: "Greeter" },
    });
    const first = await startRun(owner, wf.id, { inputs: { topic: "a" } });
    const kept = checkedVersionCount();
    expect(await readRunTarget(owner, wf.id)).toMatchObject({
      draftIsVersion: true,
      draft: null,
      versionId: first.run.workflowVersionId,
    });
    await startRun(owner, wf.id, { inputs: { topic: "b" } });
    await startRun(owner, wf.id, { inputs: { topic: "c" }, version: 1 });
    expect(checkedVersionCount()).toBe(kept + 1); // version 1, checked by its first re-run and kept
    await updateWorkflow(owner, wf.id, { draft: { ...doc, description: "edited" } });
    expect(await readRunTarget(owner, wf.id)).toMatchObject({
      draftIsVersion: false,
      draft: { description: "edited" },
    });
    expect(await readRunTarget(owner, wf.id, 1)).toMatchObject({ draftIsVersion: false, draft: null, version: 1 });
  });

  it("a saved version with errors is refused on every start with its issues, and nothing is written", async () => {
    const wf = await createWorkflow(owner, doc);
    const broken = { ...workflowSchema.parse(doc), edges: [] }; // the end node is unreachable
    await db().workflowVersion.create({ data: { workflowId: wf.id, version: 1, document: broken as object } });
    await db().workflow.update({ where: { id: wf.id }, data: { draft: broken as object } });
    const before = await db().run.count({ where: { workspaceId: owner } });
    for (let i = 0; i < 2; i++) {
      await expect(startRun(owner, wf.id, { inputs: { topic: "x" } })).rejects.toMatchObject({
        code: "invalid_workflow",
        details: {
          issues: expect.arrayContaining([expect.objectContaining({ code: "unreachable_node", nodeId: "end" })]),
        },
      });
    }
    expect(await db().run.count({ where: { workspaceId: owner } })).toBe(before);
    expect(await versions(wf.id)).toEqual([1]);
  });
});

/** getRunDashboard: what the owner's run page starts from. */
const child: WorkflowInput = {
  name: "Summarise",
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end" },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};
const parentOf = (ids: string[]): WorkflowInput => ({
  name: "Parent",
  nodes: [
    { id: "start", type: "start" },
    ...ids.map((workflowId, i) => ({ id: `sub${i}`, type: "subflow" as const, workflowId, inputs: {} })),
    { id: "end", type: "end" },
  ],
  edges: [
    ...ids.map((_, i) => ({ id: `in${i}`, source: "start", sourceHandle: "next", target: `sub${i}` })),
    ...ids.map((_, i) => ({ id: `out${i}`, source: `sub${i}`, sourceHandle: "done", target: "end" })),
  ],
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
