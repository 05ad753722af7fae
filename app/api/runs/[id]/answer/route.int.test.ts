import { expect, test } from "vitest";
import { db } from "@/lib/db/client";
import type { RunStatus } from "@/lib/engine/events";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { waitFor, waitTerminal } from "@/test/helpers/worker";
import { POST as ANSWER } from "./route";
import { POST as CANCEL } from "@/app/api/runs/[id]/cancel/route";
import { POST as START } from "@/app/api/workflows/[id]/runs/route";

/**
 * Human reviews through a real worker process, BullMQ, PostgreSQL and the scripted model: a run
 * parks as `waiting` with no job, an answer through the REST route resumes it along the choice, bad
 * answers are refused without losing the wait, and a parked run can be cancelled.
 */
useWorkerRuntime({
  fixtures: [
    {
      rules: [
        { id: "draft", match: { anyMessage: "Draft about" }, reply: { text: "DRAFT: owls at night" } },
        { id: "side", match: { anyMessage: "Slow side work" }, reply: { text: "side done", delayMs: 1_500 } },
      ],
    },
  ],
});

const reviewFlow = (side = false): WorkflowInput => ({
  name: side ? "Review with side work" : "Review",
  inputs: [{ key: "topic", type: "string" }],
  outputs: [
    { key: "decision", type: "string" },
    { key: "note", type: "string" },
  ],
  agents: [{ key: "writer", name: "Writer", instructions: "Write." }],
  limits: { runTimeoutMs: 4_000 },
  nodes: [
    { id: "start", type: "start" },
    { id: "draft", type: "agent", agent: "writer", task: "Draft about {{inputs.topic}}", branches: [{ id: "done" }] },
    {
      id: "review",
      type: "human",
      name: "Editor's review",
      prompt: "Publish {{nodes.draft.output}}?",
      branches: [
        { id: "approve", label: "Publish" },
        { id: "reject", label: "Drop it" },
      ],
      fields: [{ key: "note", type: "string", required: true }],
    },
    {
      id: "end",
      type: "end",
      outputs: { decision: "{{nodes.review.output.choice}}", note: "{{nodes.review.output.values.note}}" },
    },
    { id: "stop", type: "abort", reason: "Dropped by {{nodes.review.output.answeredBy}}" },
    ...(side
      ? [{ id: "side", type: "agent" as const, agent: "writer", task: "Slow side work", branches: [{ id: "done" }] }]
      : []),
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "draft" },
    { id: "e2", source: "draft", sourceHandle: "done", target: "review" },
    { id: "e3", source: "review", sourceHandle: "approve", target: "end" },
    { id: "e4", source: "review", sourceHandle: "reject", target: "stop" },
    ...(side
      ? [
          { id: "e5", source: "start", sourceHandle: "next", target: "side" },
          { id: "e6", source: "side", sourceHandle: "done", target: "end" },
        ]
      : []),
  ],
});

const post = (url: string, body: unknown, headers: Record<string, string>) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

async function startRun(auth: Record<string, string>, workflowId: string): Promise<string> {
  const res = await START(post(`/api/workflows/${workflowId}/runs`, { inputs: { topic: "owls" } }, auth), {
    params: Promise.resolve({ id: workflowId }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { run: { id: string } }).run.id;
}

const statusOf = async (runId: string) => (await db().run.findUniqueOrThrow({ where: { id: runId } })).status;
const waitStatus = (runId: string, status: RunStatus) =>
  waitFor(async () => (await statusOf(runId)) === status, 30_000, `run ${runId} ${status}`);

async function answer(
  auth: Record<string, string>,
  runId: string,
  body: unknown,
): Promise<{ status: number; body: { error?: { message: string }; answered?: unknown } }> {
  const res = await ANSWER(post(`/api/runs/${runId}/answer`, body, auth), { params: Promise.resolve({ id: runId }) });
  return { status: res.status, body: (await res.json()) as { error?: { message: string } } };
}

test("a run waits for its review with no job holding it, refuses bad answers, and goes on along the choice", async () => {
  const owner = await createTestUser();
  const { workflowId } = await createTestWorkflow(owner.id, reviewFlow());
  const runId = await startRun(owner.auth, workflowId);
  await waitStatus(runId, "waiting");
  const parked = await db().run.findUniqueOrThrow({ where: { id: runId } });
  expect(parked.leaseOwner).toBeNull();
  expect(parked.waitingSince).toBeInstanceOf(Date);
  const step = await db().step.findFirstOrThrow({ where: { runId, nodeId: "review" } });
  expect(step).toMatchObject({ status: "waiting", finishedAt: null, answer: null });
  expect(step.output).toMatchObject({
    request: {
      prompt: "Publish DRAFT: owls at night?",
      choices: [
        { id: "approve", label: "Publish" },
        { id: "reject", label: "Drop it" },
      ],
    },
  });
  const types = (await db().runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((e) => e.type);
  expect(types.slice(-2)).toEqual(["input_requested", "run_waiting"]);

  // waiting longer than the run's 4 s timeout: the wait does not count
  await new Promise((r) => setTimeout(r, 4_500));
  expect(await statusOf(runId)).toBe("waiting");

  const someoneElse = await createTestUser();
  expect(
    (await answer(someoneElse.auth, runId, { nodeId: "review", choice: "approve", values: { note: "x" } })).status,
  ).toBe(404);
  const badChoice = await answer(owner.auth, runId, { nodeId: "review", choice: "maybe", values: { note: "x" } });
  expect(badChoice.status).toBe(400);
  expect(badChoice.body.error?.message).toBe('"maybe" is not one of the choices (approve, reject).');
  expect((await answer(owner.auth, runId, { nodeId: "review", choice: "approve", values: {} })).status).toBe(400);
  expect((await answer(owner.auth, runId, { nodeId: "draft", choice: "approve" })).status).toBe(409);
  expect(await statusOf(runId)).toBe("waiting");

  const ok = await answer(owner.auth, runId, {
    nodeId: "review",
    choice: "approve",
    values: { note: "ship it" },
    comment: "Nice",
  });
  expect(ok.status).toBe(200);
  expect(ok.body.answered).toMatchObject({
    nodeId: "review",
    iteration: 1,
    answer: { choice: "approve", values: { note: "ship it" }, comment: "Nice" },
  });
  expect((await answer(owner.auth, runId, { nodeId: "review", choice: "reject", values: { note: "no" } })).status).toBe(
    409,
  );

  const done = await waitTerminal(runId);
  expect(done.run).toMatchObject({ status: "succeeded", outputs: { decision: "approve", note: "ship it" } });
  expect(done.run.pausedMs).toBeGreaterThanOrEqual(4_000);
  const review = done.steps.find((s) => s.nodeId === "review");
  expect(review).toMatchObject({
    status: "succeeded",
    branch: "approve",
    output: { choice: "approve", values: { note: "ship it" }, comment: "Nice" },
  });
  expect((review?.output as { answeredBy?: string }).answeredBy).toContain("token");
  const seqs = (await db().runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((e) => e.seq);
  expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  expect(
    (await answer(owner.auth, runId, { nodeId: "review", choice: "approve", values: { note: "again" } })).status,
  ).toBe(409);
}, 120_000);

test("a rejection follows the reject branch; a parked run can be cancelled, its review with it", async () => {
  const owner = await createTestUser();
  const { workflowId } = await createTestWorkflow(owner.id, reviewFlow());
  const rejected = await startRun(owner.auth, workflowId);
  const cancelled = await startRun(owner.auth, workflowId);
  await waitStatus(rejected, "waiting");
  await waitStatus(cancelled, "waiting");
  expect(
    (await answer(owner.auth, rejected, { nodeId: "review", choice: "reject", values: { note: "off topic" } })).status,
  ).toBe(200);
  const res = await CANCEL(post(`/api/runs/${cancelled}/cancel`, { reason: "not needed" }, owner.auth), {
    params: Promise.resolve({ id: cancelled }),
  });
  expect(res.status).toBe(200);
  const r = await waitTerminal(rejected);
  expect(r.run).toMatchObject({ status: "aborted" });
  expect(r.run.reason).toMatch(/^Dropped by /);
  const c = await waitTerminal(cancelled);
  expect(c.run).toMatchObject({ status: "cancelled", reason: "Cancelled: not needed" });
  expect(c.steps.find((s) => s.nodeId === "review")).toMatchObject({ status: "cancelled" });
}, 120_000);

test("an answer given while other steps still run is taken by the running job, without parking", async () => {
  const owner = await createTestUser();
  const { workflowId } = await createTestWorkflow(owner.id, reviewFlow(true));
  const runId = await startRun(owner.auth, workflowId);
  await waitFor(
    async () => (await db().step.findFirst({ where: { runId, nodeId: "review", status: "waiting" } })) !== null,
    30_000,
    "review waiting",
  );
  expect(await statusOf(runId)).toBe("running");
  expect(
    (await answer(owner.auth, runId, { nodeId: "review", choice: "approve", values: { note: "fast" } })).status,
  ).toBe(200);
  const done = await waitTerminal(runId);
  expect(done.run).toMatchObject({ status: "succeeded", outputs: { decision: "approve", note: "fast" } });
  const types = (await db().runEvent.findMany({ where: { runId } })).map((e) => e.type);
  expect(types).not.toContain("run_waiting");
}, 120_000);
