import { expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import { startRun } from "@/lib/runs/service";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { waitFor, waitTerminal } from "@/test/helpers/worker";
import { answerStep } from "./answers";

/**
 * Human reviews with a timeout, through a real worker whose reconciler (every 300 ms here, 30 s by
 * default) expires the unanswered ones: the timeout choice is taken, or the step times out; a person
 * who answers in time is not overruled.
 */
useWorkerRuntime({ workerEnv: { WEFT_RECONCILE_INTERVAL_MS: "300" } });

const timed = (timeoutMs: number, timeoutChoice?: string): WorkflowInput => ({
  name: "Timed review",
  nodes: [
    { id: "start", type: "start" },
    {
      id: "review",
      type: "human",
      prompt: "Go?",
      timeoutMs,
      ...(timeoutChoice ? { timeoutChoice } : {}),
      branches: [
        { id: "go", label: "Go" },
        { id: "stop", label: "Stop" },
      ],
    },
    { id: "end", type: "end", outputs: { by: "{{nodes.review.output.answeredBy}}" } },
    { id: "halt", type: "abort", reason: "Stopped by {{nodes.review.output.answeredBy}}" },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "review" },
    { id: "e2", source: "review", sourceHandle: "go", target: "end" },
    { id: "e3", source: "review", sourceHandle: "stop", target: "halt" },
  ],
});

test("an unanswered review takes its timeout choice; without one it times out and fails the run; an answer in time stands", async () => {
  const owner = await createTestUser();
  const withChoice = (await createTestWorkflow(owner.id, timed(800, "stop"))).workflowId;
  const withoutChoice = (await createTestWorkflow(owner.id, timed(800))).workflowId;
  const answeredInTime = (await createTestWorkflow(owner.id, timed(3_000, "stop"))).workflowId;
  const [a, b, c] = await Promise.all(
    [withChoice, withoutChoice, answeredInTime].map(async (id) => (await startRun(owner.id, id, {})).run.id),
  );

  await waitFor(
    async () => (await db().run.findUniqueOrThrow({ where: { id: c! } })).status === "waiting",
    30_000,
    "c waiting",
  );
  await answerStep(owner.id, c!, { nodeId: "review", choice: "go" }, "Ada");

  const chose = await waitTerminal(a!);
  expect(chose.run).toMatchObject({ status: "aborted", reason: "Stopped by timeout" });
  const review = chose.steps.find((s) => s.nodeId === "review");
  expect(review).toMatchObject({
    status: "succeeded",
    branch: "stop",
    output: { choice: "stop", answeredBy: "timeout", timedOutAfterMs: 800 },
  });
  expect(review!.finishedAt!.getTime() - review!.startedAt!.getTime()).toBeGreaterThanOrEqual(800);

  const timedOut = await waitTerminal(b!);
  expect(timedOut.run).toMatchObject({
    status: "failed",
    reason: 'Step "review" (iteration 1) no answer within 800 ms',
  });
  expect(timedOut.steps.find((s) => s.nodeId === "review")).toMatchObject({ status: "timed_out" });

  const answered = await waitTerminal(c!);
  expect(answered.run).toMatchObject({ status: "succeeded", outputs: { by: "Ada" } });
  await new Promise((r) => setTimeout(r, 3_500));
  expect((await db().run.findUniqueOrThrow({ where: { id: c! } })).status).toBe("succeeded");
}, 90_000);
