import { describe, expect, it } from "vitest";
import type { SubflowStart } from "../ports";
import { buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { fakePorts, ScriptedModel } from "../testing/fakes";
import { runJob } from "./index";

/** start → sub (runs workflow wf-child with the run's topic) → end (the child's summary). */
const withSubflow = () =>
  buildWorkflow({
    inputs: [{ key: "topic", type: "string" }],
    nodes: [
      startNode(),
      {
        id: "sub",
        type: "subflow",
        workflowId: "wf-child",
        inputs: { topic: "{{inputs.topic}}", literal: "plain text" },
      },
      endNode("end", { result: "{{nodes.sub.output.summary}}" }),
    ],
    edges: [fwd("start", "next", "sub"), fwd("sub", "done", "end")],
  });

function setup(port = true) {
  const ports = fakePorts({ model: new ScriptedModel(() => ({ content: "unused" })) });
  const started: SubflowStart[] = [];
  if (port)
    ports.subflows = {
      start: async (req) => (started.push(req), { runId: `child-${started.length}`, workflowName: "Child" }),
    };
  ports.store.create("r1", withSubflow(), { topic: "owls" });
  return { ports, store: ports.store, started };
}

const childEnd = (end: { output?: unknown; error?: string }) => ({
  choice: "done",
  values: {},
  answeredBy: "run:child-1",
  answeredAt: new Date().toISOString(),
  ...end,
});

describe("driver: subflow", () => {
  it("starts the child with rendered inputs, parks while it runs, then goes on with its outputs", async () => {
    const { ports, store, started } = setup();
    expect(await runJob(ports, "r1", { owner: "w1" })).toEqual({ kind: "waiting", steps: 1 });
    expect(started).toEqual([
      {
        parentRunId: "r1",
        nodeId: "sub",
        iteration: 1,
        workflowId: "wf-child",
        inputs: { topic: "owls", literal: "plain text" },
      },
    ]);
    expect(store.run("r1")).toMatchObject({ status: "waiting", leaseOwner: null });
    expect(store.steps("r1").find((s) => s.nodeId === "sub")).toMatchObject({
      status: "waiting",
      output: { request: { kind: "subflow", runId: "child-1", workflowId: "wf-child", workflowName: "Child" } },
    });
    const types = store.run("r1").events.map((e) => e.event.type);
    expect(types.slice(-2)).toEqual(["subflow_started", "run_waiting"]);
    expect(store.run("r1").events.find((e) => e.event.type === "subflow_started")?.event).toEqual({
      type: "subflow_started",
      nodeId: "sub",
      iteration: 1,
      runId: "child-1",
      workflowId: "wf-child",
      workflowName: "Child",
    });

    expect(store.answer("r1", "sub", 1, childEnd({ output: { summary: "owls, briefly" } }))).toEqual({
      ok: true,
      woke: true,
    });
    expect(await runJob(ports, "r1", { owner: "w2" })).toEqual({
      kind: "terminal",
      status: "succeeded",
      reason: 'Reached end node "end"',
    });
    expect(store.run("r1").outputs).toEqual({ result: "owls, briefly" });
    expect(store.steps("r1").find((s) => s.nodeId === "sub")).toMatchObject({
      status: "succeeded",
      branch: "done",
      output: { summary: "owls, briefly" },
    });
    expect(started).toHaveLength(1);
  });

  it("a child that did not succeed fails the step and the run with its reason", async () => {
    const { ports, store } = setup();
    await runJob(ports, "r1", { owner: "w1" });
    store.answer("r1", "sub", 1, childEnd({ error: 'the run of "Child" (child-1) ended aborted: no owls today' }));
    const out = await runJob(ports, "r1", { owner: "w2" });
    expect(out).toMatchObject({ kind: "terminal", status: "failed" });
    expect(out.kind === "terminal" && out.reason).toMatch(/Step "sub".*ended aborted: no owls today/);
    expect(store.steps("r1").find((s) => s.nodeId === "sub")).toMatchObject({ status: "failed" });
  });

  it("an error-policy retry of the step starts a child of its own, which it then waits for", async () => {
    const { ports, store, started } = setup();
    const doc = store.run("r1").workflow as { nodes: { id: string; onError?: unknown }[] };
    doc.nodes.find((n) => n.id === "sub")!.onError = {
      retry: { maxAttempts: 2, initialDelayMs: 0, backoffFactor: 1, on: ["other"] },
      onExhausted: "fail",
    };
    await runJob(ports, "r1", { owner: "w1" });
    store.answer("r1", "sub", 1, childEnd({ error: "the child failed" }));
    expect(await runJob(ports, "r1", { owner: "w2" })).toEqual({ kind: "waiting", steps: 1 });
    expect(started.map((s) => s.retry)).toEqual([undefined, 1]);
    expect(store.steps("r1").find((s) => s.nodeId === "sub")).toMatchObject({
      status: "waiting",
      attempt: 2,
      output: { request: { runId: "child-2" } },
    });
  });

  it("a child that cannot start fails the step at once; without a subflow port the step fails too", async () => {
    const refused = setup();
    refused.ports.subflows = {
      start: async () => {
        throw new Error('workflow "Child" has no saved version');
      },
    };
    const out = await runJob(refused.ports, "r1", { owner: "w1" });
    expect(out).toMatchObject({ kind: "terminal", status: "failed" });
    expect(out.kind === "terminal" && out.reason).toMatch(/no saved version/);

    const bare = setup(false);
    const none = await runJob(bare.ports, "r1", { owner: "w1" });
    expect(none.kind === "terminal" && none.reason).toMatch(/Subflows cannot run here/);
  });
});
