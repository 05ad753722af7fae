import { expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import { createWebhook } from "@/lib/webhooks/service";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { POST as START } from "../workflows/[id]/runs/route";
import { POST as HOOK } from "./[secret]/route";

/**
 * `?wait=N` on the two ways a script starts a run, through a real worker process, BullMQ, PostgreSQL
 * and the scripted model: the answer comes when the run ended, with its outputs.
 */
useWorkerRuntime({
  fixtures: [
    { rules: [{ id: "wait-wf", match: { anyMessage: "waited-for text" }, reply: { text: "SUMMARY: waited for" } }] },
  ],
});

const summariser: WorkflowInput = {
  name: "Summariser",
  inputs: [{ key: "text", type: "text" }],
  outputs: [{ key: "summary", type: "text" }],
  agents: [{ key: "writer", name: "Writer", instructions: "Summarise the text in one line." }],
  nodes: [
    { id: "start", type: "start" },
    { id: "write", type: "agent", agent: "writer", task: "Summarise: {{inputs.text}}", branches: [{ id: "done" }] },
    { id: "end", type: "end", outputs: { summary: "{{nodes.write.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "write" },
    { id: "e2", source: "write", sourceHandle: "done", target: "end" },
  ],
};

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

test("the REST start and a webhook call with ?wait= answer the ended run with its outputs; a malformed wait starts nothing", async () => {
  const owner = await createTestUser();
  const { workflowId } = await createTestWorkflow(owner.id, summariser);
  const ctx = { params: Promise.resolve({ id: workflowId }) };

  const rest = await START(
    post(`/api/workflows/${workflowId}/runs?wait=30`, { inputs: { text: "some waited-for text" } }, owner.auth),
    ctx,
  );
  expect(rest.status).toBe(201);
  const { run } = (await rest.json()) as {
    run: { status: string; outputs: unknown; trigger: string; steps: unknown[] };
  };
  expect(run).toMatchObject({ status: "succeeded", outputs: { summary: "SUMMARY: waited for" }, trigger: "api" });
  expect(run.steps.length).toBeGreaterThanOrEqual(3);

  const { secret } = await createWebhook(owner.id, workflowId, { name: "Chat command" });
  const hook = (url: string) =>
    HOOK(post(url, { text: "more waited-for text" }), { params: Promise.resolve({ secret }) });
  const answered = await hook(`/api/hooks/${secret}?wait=30`);
  expect(answered.status).toBe(200);
  expect(await answered.json()).toMatchObject({
    status: "succeeded",
    outputs: { summary: "SUMMARY: waited for" },
    reason: expect.any(String),
  });

  const before = await db().run.count({ where: { workspaceId: owner.id } });
  for (const [route, res] of [
    [
      "rest",
      await START(post(`/api/workflows/${workflowId}/runs?wait=soon`, { inputs: { text: "x" } }, owner.auth), ctx),
    ],
    ["hook", await hook(`/api/hooks/${secret}?wait=-1`)],
  ] as const) {
    expect(res.status, route).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^wait must be a whole number of seconds/,
    );
  }
  expect(await db().run.count({ where: { workspaceId: owner.id } })).toBe(before);
}, 120_000);
