import { expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { countWaitingRuns, waitsForPerson } from "@/lib/db/runs";
import type { Prisma } from "@/lib/generated/prisma/client";
import { workflowSchema, type WorkflowInput } from "@/lib/workflow/schema";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { waitFor, waitTerminal as waitEnd } from "@/test/helpers/worker";
import { answerStep } from "./answers";
import { cancelRun, startRun } from "./service";
import { startSubflowRun } from "./subflows";
import { createTestWorkflow } from "@/test/fixtures";

/**
 * Subflow nodes through a real worker process, BullMQ, PostgreSQL and the scripted model: a parent
 * run starts its child, parks while it runs, and goes on with the child's outputs; a child that
 * fails or refuses its inputs fails the step; a workflow that runs itself stops at the depth limit;
 * ending a parent cancels its children; a child's human review is what people are asked for.
 */
const rt = useWorkerRuntime({
  fixtures: [{ rules: [{ id: "sum", match: { anyMessage: "Summarise" }, reply: { text: "SUMMARY of owls" } }] }],
  // the reconciler's pass expires a subflow step's timeout: often, so a test sees it
  workerEnv: { WEFT_RECONCILE_INTERVAL_MS: "500" },
});

/** A child workflow: input topic, one agent step, outputs summary (and the topic it got). */
const child: WorkflowInput = {
  name: "Summariser",
  inputs: [
    { key: "topic", type: "string" },
    { key: "count", type: "number", required: false },
  ],
  outputs: [
    { key: "summary", type: "string" },
    { key: "topic", type: "string" },
  ],
  agents: [{ key: "w", name: "W", instructions: "Write." }],
  nodes: [
    { id: "start", type: "start" },
    { id: "sum", type: "agent", agent: "w", task: "Summarise {{inputs.topic}}", branches: [{ id: "done" }] },
    {
      id: "end",
      type: "end",
      outputs: { summary: "{{nodes.sum.output}}", topic: "{{inputs.topic}} x{{inputs.count}}" },
    },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "sum" },
    { id: "e2", source: "sum", sourceHandle: "done", target: "end" },
  ],
};

/** A parent that runs `childId` once per subflow node given (`inputs` each), all into one end. */
const parent = (
  subs: { id: string; workflowId: string; inputs: Record<string, string>; timeoutMs?: number }[],
  output = "{{nodes.sub.output.summary}}",
): WorkflowInput => ({
  name: "Parent",
  inputs: [{ key: "topic", type: "string" }],
  outputs: [{ key: "result", type: "string" }],
  nodes: [
    { id: "start", type: "start" },
    ...subs.map((s) => ({
      id: s.id,
      type: "subflow" as const,
      workflowId: s.workflowId,
      inputs: s.inputs,
      ...(s.timeoutMs ? { timeoutMs: s.timeoutMs } : {}),
    })),
    { id: "end", type: "end", outputs: { result: output } },
  ],
  edges: subs.flatMap((s) => [
    { id: `in-${s.id}`, source: "start", sourceHandle: "next", target: s.id },
    { id: `out-${s.id}`, source: s.id, sourceHandle: "done", target: "end" },
  ]),
});

/** The run row once it is terminal. */
const waitTerminal = async (runId: string, ms?: number) => (await waitEnd(runId, ms)).run;

const start = async (workflowId: string, inputs: Record<string, unknown> = { topic: "owls" }) =>
  (await startRun(rt.workspaceId, workflowId, { inputs })).run.id;

test("a parent runs its child, parks meanwhile, and goes on with the child's outputs", async () => {
  const { workflowId: childId } = await createTestWorkflow(rt.workspaceId, child);
  const { workflowId } = await createTestWorkflow(
    rt.workspaceId,
    parent(
      [{ id: "sub", workflowId: childId, inputs: { topic: "{{inputs.topic}}", count: "3" } }],
      "{{nodes.sub.output.summary}} / {{nodes.sub.output.topic}}",
    ),
  );
  const runId = await start(workflowId);
  const done = await waitTerminal(runId);
  expect(done).toMatchObject({ status: "succeeded", outputs: { result: "SUMMARY of owls / owls x3" } });

  const kids = await db().run.findMany({ where: { parentRunId: runId } });
  expect(kids).toHaveLength(1);
  expect(kids[0]).toMatchObject({
    status: "succeeded",
    trigger: "subflow",
    triggerLabel: runId,
    parentNodeId: "sub",
    parentIteration: 1,
    depth: 1,
    inputs: { topic: "owls", count: 3 },
  });
  const step = await db().step.findFirstOrThrow({ where: { runId, nodeId: "sub" } });
  expect(step).toMatchObject({ status: "succeeded", output: { summary: "SUMMARY of owls", topic: "owls x3" } });
  const events = await db().runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } });
  expect(events.find((e) => e.type === "subflow_started")?.payload).toMatchObject({
    nodeId: "sub",
    runId: kids[0]!.id,
    workflowId: childId,
    workflowName: "Test workflow",
  });
  // the child runs longer than a commit: the parent parked on the way, holding no worker
  expect(events.map((e) => e.type)).toContain("run_waiting");
});

test("two subflows in parallel each get their own child; a child that fails fails its step and the run", async () => {
  const { workflowId: childId } = await createTestWorkflow(rt.workspaceId, child);
  const both = parent(
    [
      { id: "a", workflowId: childId, inputs: { topic: "{{inputs.topic}}" } },
      { id: "b", workflowId: childId, inputs: { topic: "bats" } },
    ],
    "{{nodes.a.output.topic}} + {{nodes.b.output.topic}}",
  );
  const { workflowId } = await createTestWorkflow(rt.workspaceId, both);
  const ok = await waitTerminal(await start(workflowId));
  expect(ok).toMatchObject({ status: "succeeded", outputs: { result: "owls x + bats x" } });
  expect(await db().run.count({ where: { parentRunId: ok.id } })).toBe(2);

  const failing: WorkflowInput = {
    ...child,
    outputs: [],
    nodes: [
      { id: "start", type: "start" },
      {
        id: "route",
        type: "router",
        mode: "expression",
        branches: [
          { id: "bad", expression: 'inputs.topic == "owls"' },
          { id: "ok", default: true },
        ],
      },
      { id: "stop", type: "abort", reason: "no {{inputs.topic}} today" },
      { id: "end", type: "end" },
    ],
    edges: [
      { id: "e1", source: "start", sourceHandle: "next", target: "route" },
      { id: "e2", source: "route", sourceHandle: "bad", target: "stop" },
      { id: "e3", source: "route", sourceHandle: "ok", target: "end" },
    ],
  };
  const { workflowId: badId } = await createTestWorkflow(rt.workspaceId, failing);
  const { workflowId: p2 } = await createTestWorkflow(
    rt.workspaceId,
    parent([{ id: "sub", workflowId: badId, inputs: { topic: "owls" } }], "x"),
  );
  const failed = await waitTerminal(await start(p2));
  expect(failed.status).toBe("failed");
  expect(failed.reason).toMatch(/Step "sub".*ended aborted: no owls today/);
});

test("a child's inputs are checked like any start: refused inputs fail the step with the field named, and no child run exists", async () => {
  const { workflowId: childId } = await createTestWorkflow(rt.workspaceId, child);
  const { workflowId } = await createTestWorkflow(
    rt.workspaceId,
    parent([{ id: "sub", workflowId: childId, inputs: { count: "many" } }], "x"),
  );
  const run = await waitTerminal(await start(workflowId));
  expect(run.status).toBe("failed");
  expect(run.reason).toMatch(/refused to start.*topic/);
  expect(await db().run.count({ where: { parentRunId: run.id } })).toBe(0);

  const { workflowId: missing } = await createTestWorkflow(
    rt.workspaceId,
    parent([{ id: "sub", workflowId: "no-such-workflow", inputs: {} }], "x"),
  );
  const gone = await waitTerminal(await start(missing));
  expect(gone).toMatchObject({ status: "failed" });
  expect(gone.reason).toMatch(/does not exist or is not yours/);
});

test("a workflow that runs itself stops at the depth limit: six runs, the deepest refused, every level failed", async () => {
  const { workflowId, versionId } = await createTestWorkflow(rt.workspaceId, parent([], "x"));
  const self = workflowSchema.parse(
    parent([{ id: "sub", workflowId, inputs: { topic: "{{inputs.topic}}" } }], "{{nodes.sub.output.result}}"),
  ) as unknown as Prisma.InputJsonValue;
  await db().workflowVersion.update({ where: { id: versionId }, data: { document: self } });
  await db().workflow.update({ where: { id: workflowId }, data: { draft: self } });
  const top = await waitTerminal(await start(workflowId), 90_000);
  expect(top.status).toBe("failed");
  const chain = [top];
  for (;;) {
    const next = await db().run.findFirst({ where: { parentRunId: chain.at(-1)!.id } });
    if (!next) break;
    chain.push(await waitTerminal(next.id));
  }
  expect(chain.map((r) => r.depth)).toEqual([0, 1, 2, 3, 4, 5]);
  expect(chain.every((r) => r.status === "failed")).toBe(true);
  expect(chain.at(-1)!.reason).toMatch(/nest at most 5 deep/);
});

/** The child workflow with a human review before its end (it waits until someone answers). */
const reviewed: WorkflowInput = {
  ...child,
  nodes: [...child.nodes!, { id: "ok", type: "human", prompt: "Fine?", branches: [{ id: "yes" }] }],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "sum" },
    { id: "e2", source: "sum", sourceHandle: "done", target: "ok" },
    { id: "e3", source: "ok", sourceHandle: "yes", target: "end" },
  ],
};

test("a subflow step with a timeout times out when its child takes longer, failing the parent, whose end cancels the child", async () => {
  const { workflowId: childId } = await createTestWorkflow(rt.workspaceId, reviewed);
  const { workflowId } = await createTestWorkflow(
    rt.workspaceId,
    parent([{ id: "sub", workflowId: childId, inputs: { topic: "{{inputs.topic}}" }, timeoutMs: 1_000 }]),
  );
  const runId = await start(workflowId);
  const run = await waitTerminal(runId, 30_000);
  expect(run.status).toBe("failed");
  expect(run.reason).toMatch(/Step "sub".*its subflow's run did not end within 1000 ms/);
  expect(await db().step.findFirstOrThrow({ where: { runId, nodeId: "sub" } })).toMatchObject({ status: "timed_out" });
  const kid = await db().run.findFirstOrThrow({ where: { parentRunId: runId } });
  expect((await waitTerminal(kid.id)).status).toBe("cancelled");
});

test("a child's human review is what people wait for; answering it finishes the child, then the parent; cancelling a parent cancels its child", async () => {
  const { workflowId: childId } = await createTestWorkflow(rt.workspaceId, reviewed);
  const { workflowId } = await createTestWorkflow(
    rt.workspaceId,
    parent([{ id: "sub", workflowId: childId, inputs: { topic: "{{inputs.topic}}" } }]),
  );
  const before = await countWaitingRuns(rt.workspaceId);
  const runId = await start(workflowId);
  const kid = await waitFor(
    async () => db().run.findFirst({ where: { parentRunId: runId, status: "waiting" } }),
    30_000,
    "child waiting",
  );
  await waitFor(
    async () => (await db().run.findUniqueOrThrow({ where: { id: runId } })).status === "waiting",
    30_000,
    "parent parked",
  );
  expect(await waitsForPerson(kid.id)).toBe(true);
  expect(await waitsForPerson(runId)).toBe(false);
  expect(await countWaitingRuns(rt.workspaceId)).toBe(before + 1);
  await answerStep(rt.workspaceId, kid.id, { nodeId: "ok", choice: "yes" }, "tester");
  expect(await waitTerminal(kid.id)).toMatchObject({ status: "succeeded" });
  expect(await waitTerminal(runId)).toMatchObject({ status: "succeeded", outputs: { result: "SUMMARY of owls" } });

  const second = await start(workflowId);
  const waitingKid = await waitFor(
    async () => db().run.findFirst({ where: { parentRunId: second, status: "waiting" } }),
    30_000,
    "second child waiting",
  );
  await cancelRun(rt.workspaceId, second);
  expect(await waitTerminal(second)).toMatchObject({ status: "cancelled" });
  const cancelled = await waitTerminal(waitingKid.id);
  expect(cancelled.status).toBe("cancelled");
  expect(cancelled.reason).toMatch(/The run that started it ended \(cancelled\)/);
});

test("a waiting subflow whose child run is gone (its workflow deleted) fails instead of waiting forever", async () => {
  const { workflowId: childId } = await createTestWorkflow(rt.workspaceId, reviewed);
  const { workflowId } = await createTestWorkflow(
    rt.workspaceId,
    parent([{ id: "sub", workflowId: childId, inputs: { topic: "{{inputs.topic}}" } }]),
  );
  const runId = await start(workflowId);
  await waitFor(
    async () => db().run.findFirst({ where: { parentRunId: runId, status: "waiting" } }),
    30_000,
    "child waiting",
  );
  await waitFor(
    async () => (await db().run.findUniqueOrThrow({ where: { id: runId } })).status === "waiting",
    30_000,
    "parent parked",
  );
  await db().workflow.delete({ where: { id: childId } });
  const run = await waitTerminal(runId, 30_000);
  expect(run.status).toBe("failed");
  expect(run.reason).toMatch(/no longer exists/);
});

test("a retried attempt of a subflow step (its worker died after starting the child) gets the same child, never a second one", async () => {
  const { workflowId: childId } = await createTestWorkflow(rt.workspaceId, reviewed);
  const { workflowId } = await createTestWorkflow(
    rt.workspaceId,
    parent([{ id: "sub", workflowId: childId, inputs: { topic: "{{inputs.topic}}" } }]),
  );
  const runId = await start(workflowId);
  const first = await waitFor(
    async () => db().run.findFirst({ where: { parentRunId: runId } }),
    30_000,
    "child started",
  );
  // what the re-dispatched attempt's executor asks for: the same parent step
  const again = await startSubflowRun(rt.workspaceId, {
    parentRunId: runId,
    nodeId: "sub",
    iteration: 1,
    workflowId: childId,
    inputs: { topic: "owls" },
  });
  expect(again).toEqual({ runId: first.id, workflowName: "Test workflow" });
  expect(await db().run.count({ where: { parentRunId: runId } })).toBe(1);
  // another iteration of the step is another child
  const next = await startSubflowRun(rt.workspaceId, {
    parentRunId: runId,
    nodeId: "sub",
    iteration: 2,
    workflowId: childId,
    inputs: { topic: "owls" },
  });
  expect(next.runId).not.toBe(first.id);
  await cancelRun(rt.workspaceId, runId);
  expect((await waitTerminal(runId)).status).toBe("cancelled");
  await waitFor(
    async () =>
      (await db().run.count({ where: { parentRunId: runId, status: { in: ["queued", "running", "waiting"] } } })) === 0,
    30_000,
    "children cancelled",
  );
});
