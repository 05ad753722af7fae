import { describe, expect, it } from "vitest";
import { ModelCallError } from "../errors";
import { seedFromSteps } from "../planner";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { fakePorts, FakeTools, lastUser, ScriptedModel, type RecordedCall } from "../testing/fakes";
import type { MemoryStore } from "../memory-store";
import { runJob } from "./index";

/**
 * Reuse through the driver: a retry of a failed run answers its succeeded steps from their recorded
 * results (no model call, no tool call), a fork runs what depends on its edited step.
 */

/** start → s1 … s6 → end; s3 is a side-effecting tool node, the others agents writing "<id>(<what they were given>)". */
const sixSteps = () =>
  buildWorkflow({
    inputs: [{ key: "topic", type: "string" }],
    outputs: [{ key: "result" }],
    nodes: [
      startNode(),
      agentNode("s1", ["done"], { task: "s1 of {{inputs.topic}}" }),
      agentNode("s2", ["done"], { task: "s2 of {{nodes.s1.output}}" }),
      { id: "s3", type: "tool", tool: { name: "notify" }, args: { text: "{{nodes.s2.output}}" } },
      agentNode("s4", ["done"], { task: "s4 of {{nodes.s2.output}}" }),
      agentNode("s5", ["done"], { task: "s5 of {{nodes.s4.output}}" }),
      agentNode("s6", ["done"], { task: "s6 of {{nodes.s5.output}}" }),
      endNode("end", { result: "{{nodes.s6.output}}" }),
    ],
    edges: ["start:next:s1", "s1:done:s2", "s2:done:s3", "s3:done:s4", "s4:done:s5", "s5:done:s6", "s6:done:end"].map(
      (e) => {
        const [a, h, b] = e.split(":") as [string, string, string];
        return fwd(a, h, b);
      },
    ),
  });

/** Agents answer `<node>(<task's subject>)`; s5 fails while `failS5` says so. */
function world(failS5: () => boolean) {
  const notified: unknown[] = [];
  const tools = new FakeTools({
    notify: {
      descriptor: { name: "notify", description: "Notifies", parameters: { type: "object" }, sideEffect: true },
      run: (args) => (notified.push(args.text), "notified"),
    },
  });
  const model = new ScriptedModel((c: RecordedCall) => {
    const [node, subject] = lastUser(c.messages).split(" of ");
    if (node === "s5" && failS5())
      return { error: new ModelCallError("permanent", "the provider rejected the request", 400) };
    return { content: `${node}(${subject})` };
  });
  return { tools, model, notified };
}

const byNode = (store: MemoryStore, runId: string) =>
  Object.fromEntries(store.steps(runId).map((s) => [s.nodeId, s.status]));
const nodesCalled = (model: ScriptedModel) => model.calls.map((c) => lastUser(c.messages).split(" of ")[0]);

describe("driver: a retry reuses the failed run's results", () => {
  it("runs only from the failed step on: no model call for s1–s4, the side effect in s3 made once in all", async () => {
    let failing = true;
    const { tools, model, notified } = world(() => failing);
    const ports = fakePorts({ model, tools });
    ports.store.create("orig", sixSteps(), { topic: "owls" });
    expect(await runJob(ports, "orig", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "failed" });
    expect(nodesCalled(model)).toEqual(["s1", "s2", "s4", "s5"]);
    failing = false;
    model.calls.length = 0;
    ports.store.create("retry", sixSteps(), { topic: "owls" }, seedFromSteps("orig", ports.store.steps("orig")));
    expect(await runJob(ports, "retry", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(nodesCalled(model)).toEqual(["s5", "s6"]);
    expect(notified).toEqual(["s2(s1(owls))"]);
    expect(ports.store.run("retry").outputs).toEqual({ result: "s6(s5(s4(s2(s1(owls)))))" });
    const started = ports.store
      .run("retry")
      .events.flatMap((e) => (e.event.type === "step_started" ? [[e.event.nodeId, e.event.reused ?? null]] : []));
    expect(started).toEqual([
      ["start", { runId: "orig", edited: false }],
      ["s1", { runId: "orig", edited: false }],
      ["s2", { runId: "orig", edited: false }],
      ["s3", { runId: "orig", edited: false }],
      ["s4", { runId: "orig", edited: false }],
      ["s5", null],
      ["s6", null],
      ["end", null],
    ]);
    expect(byNode(ports.store, "retry")).toEqual(
      Object.fromEntries(["start", "s1", "s2", "s3", "s4", "s5", "s6", "end"].map((n) => [n, "succeeded"])),
    );
    // reused steps cost nothing
    expect(
      ports.store
        .steps("retry")
        .filter((s) => ["s1", "s2", "s4"].includes(s.nodeId))
        .every((s) => s.promptTokens === 0),
    ).toBe(true);
  });

  it("a fork at s2 with an edited output runs s3–s6 with the edited value", async () => {
    const { tools, model, notified } = world(() => false);
    const ports = fakePorts({ model, tools });
    ports.store.create("orig", sixSteps(), { topic: "owls" });
    await runJob(ports, "orig", { owner: "w1" });
    model.calls.length = 0;
    const edit = { nodeId: "s2", iteration: 1, output: "EDITED", branch: "done" };
    ports.store.create(
      "fork",
      sixSteps(),
      { topic: "owls" },
      seedFromSteps("orig", ports.store.steps("orig"), { edit }),
    );
    expect(await runJob(ports, "fork", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(nodesCalled(model)).toEqual(["s4", "s5", "s6"]);
    expect(notified).toEqual(["s2(s1(owls))", "EDITED"]);
    expect(ports.store.run("fork").outputs).toEqual({ result: "s6(s5(s4(EDITED)))" });
    const s2 = ports.store.run("fork").events.find((e) => e.event.type === "step_started" && e.event.nodeId === "s2");
    expect(s2?.event).toMatchObject({ reused: { runId: "orig", edited: true } });
    expect(ports.store.steps("fork").find((s) => s.nodeId === "s2")?.output).toBe("EDITED");
  });

  it("keeps reusing parallel branches that do not depend on what runs again", async () => {
    const doc = buildWorkflow({
      nodes: [
        startNode(),
        agentNode("a", ["done"], { task: "a of x" }),
        agentNode("b", ["done"], { task: "b of x" }),
        agentNode("join", ["done"], { task: "join of {{nodes.a.output}} {{nodes.b.output}}" }),
        endNode(),
      ],
      edges: [
        fwd("start", "next", "a"),
        fwd("start", "next", "b"),
        fwd("a", "done", "join"),
        fwd("b", "done", "join"),
        fwd("join", "done", "end"),
      ],
    });
    let failB = true;
    const model = new ScriptedModel((c) => {
      const node = lastUser(c.messages).split(" of ")[0];
      return node === "b" && failB
        ? { error: new ModelCallError("permanent", "no", 400), delayMs: 20 }
        : { content: `${node}!` };
    });
    const ports = fakePorts({ model });
    ports.store.create("orig", doc, {});
    await runJob(ports, "orig", { owner: "w1" });
    expect(byNode(ports.store, "orig")).toMatchObject({ a: "succeeded", b: "failed" });
    failB = false;
    model.calls.length = 0;
    ports.store.create("retry", doc, {}, seedFromSteps("orig", ports.store.steps("orig")));
    expect(await runJob(ports, "retry", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(nodesCalled(model).sort()).toEqual(["b", "join"]);
  });

  it("does not reuse a step whose input changed (the edges that delivered differ)", async () => {
    const { tools, model } = world(() => false);
    const ports = fakePorts({ model, tools });
    ports.store.create("orig", sixSteps(), { topic: "owls" });
    await runJob(ports, "orig", { owner: "w1" });
    const seed = seedFromSteps("orig", ports.store.steps("orig"));
    seed.steps["s4#1"]!.input = { via: ["some-other-edge"] };
    model.calls.length = 0;
    ports.store.create("retry", sixSteps(), { topic: "owls" }, seed);
    await runJob(ports, "retry", { owner: "w1" });
    expect(nodesCalled(model)).toEqual(["s4", "s5", "s6"]);
  });

  it("refuses a run whose seed does not parse instead of running everything again", async () => {
    const { tools, model } = world(() => false);
    const ports = fakePorts({ model, tools });
    ports.store.create("bad", sixSteps(), { topic: "owls" }, { runId: 7, steps: "no" });
    expect(await runJob(ports, "bad", { owner: "w1" })).toMatchObject({
      kind: "terminal",
      status: "failed",
      reason: "The run's reuse plan (seed) is corrupt",
    });
    expect(model.calls).toHaveLength(0);
  });
});
