import { describe, expect, it } from "vitest";
import { abortNode, agentNode, buildWorkflow, endNode, fwd, humanNode, startNode } from "../testing/build";
import { fakePorts, ScriptedModel } from "../testing/fakes";
import { runJob } from "./index";

const reviewed = (opts: { side?: boolean; runTimeoutMs?: number } = {}) =>
  buildWorkflow({
    nodes: [
      startNode(),
      agentNode("draft"),
      humanNode("review", ["approve", "reject"], {
        fields: [{ key: "note", type: "string", description: "Why", required: false }],
      }),
      endNode("end", { decision: "{{nodes.review.output.choice}}", note: "{{nodes.review.output.values.note}}" }),
      abortNode("stop", "Rejected by {{nodes.review.output.answeredBy}}"),
      ...(opts.side ? [agentNode("side")] : []),
    ],
    edges: [
      fwd("start", "next", "draft"),
      fwd("draft", "done", "review"),
      fwd("review", "approve", "end"),
      fwd("review", "reject", "stop"),
      ...(opts.side ? [fwd("start", "next", "side"), fwd("side", "done", "end")] : []),
    ],
    ...(opts.runTimeoutMs ? { limits: { runTimeoutMs: opts.runTimeoutMs } } : {}),
  });

function setup(workflow: unknown, sideDelayMs = 0) {
  const model = new ScriptedModel((c) => ({
    content: c.messages.some((m) => m.content.includes("Do side")) ? "side done" : "the draft",
    delayMs: c.messages.some((m) => m.content.includes("Do side")) ? sideDelayMs : 0,
  }));
  const ports = fakePorts({ model });
  ports.store.create("r1", workflow);
  return { ports, store: ports.store };
}

const ada = (choice: string, note?: string) => ({
  choice,
  values: note ? { note } : {},
  answeredBy: "Ada",
  answeredAt: new Date().toISOString(),
});

describe("driver: human review", () => {
  it("parks the run as waiting (released, the question stored on the step), then finishes it with the answer", async () => {
    const { ports, store } = setup(reviewed());
    expect(await runJob(ports, "r1", { owner: "w1" })).toEqual({ kind: "waiting", steps: 1 });
    const parked = store.run("r1");
    expect(parked).toMatchObject({ status: "waiting", leaseOwner: null });
    expect(parked.waitingSince).toBeInstanceOf(Date);
    const step = store.steps("r1").find((s) => s.nodeId === "review")!;
    expect(step).toMatchObject({
      status: "waiting",
      finishedAt: null,
      output: {
        request: {
          prompt: "Review the draft",
          choices: [
            { id: "approve", label: "APPROVE" },
            { id: "reject", label: "REJECT" },
          ],
          fields: [{ key: "note", type: "string", description: "Why", required: false }],
        },
      },
    });
    expect(parked.events.map((e) => e.event.type).slice(-2)).toEqual(["input_requested", "run_waiting"]);
    expect(parked.events.at(-1)?.event).toEqual({ type: "run_waiting", steps: [{ nodeId: "review", iteration: 1 }] });

    // a stray job for the parked run does nothing
    expect(await runJob(ports, "r1", { owner: "w2" })).toEqual({ kind: "waiting", steps: 0 });
    expect(store.answer("r1", "review", 1, ada("approve", "looks good"))).toEqual({ ok: true, woke: true });
    expect(store.answer("r1", "review", 1, ada("reject"))).toEqual({ ok: false, woke: false });
    expect(await runJob(ports, "r1", { owner: "w3" })).toEqual({
      kind: "terminal",
      status: "succeeded",
      reason: 'Reached end node "end"',
    });
    expect(store.run("r1").outputs).toEqual({ decision: "approve", note: "looks good" });
    expect(store.steps("r1").find((s) => s.nodeId === "review")).toMatchObject({
      status: "succeeded",
      branch: "approve",
      output: { choice: "approve", answeredBy: "Ada" },
    });
    const types = store.run("r1").events.map((e) => e.event.type);
    expect(types.slice(types.indexOf("run_waiting") + 1, types.indexOf("run_waiting") + 3)).toEqual([
      "run_started",
      "step_finished",
    ]);
    expect(store.run("r1").events.map((e) => e.seq)).toEqual(store.run("r1").events.map((_, i) => i + 1));
  });

  it("a rejection follows the reject branch", async () => {
    const { ports, store } = setup(reviewed());
    await runJob(ports, "r1", { owner: "w1" });
    store.answer("r1", "review", 1, ada("reject"));
    expect(await runJob(ports, "r1", { owner: "w2" })).toEqual({
      kind: "terminal",
      status: "aborted",
      reason: "Rejected by Ada",
    });
  });

  it("an answer given while other steps still run is picked up by the running job without parking", async () => {
    const { ports, store } = setup(reviewed({ side: true }), 400);
    const job = runJob(ports, "r1", { owner: "w1", cancelPollMs: 20 });
    for (let i = 0; i < 100 && store.steps("r1").find((s) => s.nodeId === "review")?.status !== "waiting"; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(store.answer("r1", "review", 1, ada("approve"))).toEqual({ ok: true, woke: false });
    expect(await job).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(store.run("r1").events.some((e) => e.event.type === "run_waiting")).toBe(false);
  });

  it("time spent waiting does not count toward the run's timeout", async () => {
    const { ports, store } = setup(reviewed({ runTimeoutMs: 1_000 }));
    await runJob(ports, "r1", { owner: "w1" });
    const tenMinutesLater = new Date(store.run("r1").waitingSince!.getTime() + 600_000);
    store.run("r1").startedAt = new Date(Date.now() - 600_000);
    store.answer("r1", "review", 1, ada("approve"), tenMinutesLater);
    expect(store.run("r1").pausedMs).toBeGreaterThanOrEqual(600_000);
    expect(await runJob(ports, "r1", { owner: "w2" })).toMatchObject({ kind: "terminal", status: "succeeded" });
  });

  it("a parked run that is cancelled ends cancelled, its review step too", async () => {
    const { ports, store } = setup(reviewed());
    await runJob(ports, "r1", { owner: "w1" });
    await store.requestCancel("r1", "not needed");
    store.run("r1").status = "queued";
    expect(await runJob(ports, "r1", { owner: "w2" })).toEqual({
      kind: "terminal",
      status: "cancelled",
      reason: "Cancelled: not needed",
    });
    expect(store.steps("r1").find((s) => s.nodeId === "review")).toMatchObject({ status: "cancelled" });
  });
});
