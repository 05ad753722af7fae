import { describe, expect, it } from "vitest";
import { defaultExecutors } from "../executors";
import { ModelCallError } from "../errors";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { fakePorts, ScriptedModel, systemOf, type RecordedCall, type ScriptedReply } from "../testing/fakes";
import { articleWriter, financialAnalyst, majorityVote, refundTriage } from "../testing/scenarios";
import { runJob } from "./index";

const taskOf = (c: RecordedCall) => c.messages.find((m) => m.role === "user")?.content ?? "";

function setup(workflow: unknown, script: (c: RecordedCall) => ScriptedReply, inputs: Record<string, unknown> = {}) {
  const model = new ScriptedModel(script);
  const ports = fakePorts({ model });
  ports.store.create("r1", workflow, inputs);
  return { ports, model, store: ports.store };
}

function expectContiguous(seqs: number[]) {
  expect(seqs).toEqual(seqs.map((_, i) => i + 1));
}

/** B's solvers: 13, 13, 5 on three models; the aggregator takes the majority of what it is shown. */
function voteScript(c: RecordedCall): ScriptedReply {
  const byModel: Record<string, string> = { "model-1": "13", "model-2": "13", "model-3": "5" };
  if (c.model && byModel[c.model]) return { content: byModel[c.model], delayMs: 40 };
  const numbers = taskOf(c).match(/\d+/g) ?? [];
  const counts = new Map<string, number>();
  for (const n of numbers) counts.set(n, (counts.get(n) ?? 0) + 1);
  return { content: [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "none" };
}

describe("driver: scenario B (R2 concurrency, join, events)", () => {
  it("runs the three solvers at the same time, the aggregator once after them, and stores contiguous events", async () => {
    const { ports, model, store } = setup(majorityVote(), voteScript, { problem: "6+7" });
    const outcome = await runJob(ports, "r1", { owner: "w1" });
    expect(outcome).toEqual({ kind: "terminal", status: "succeeded", reason: 'Reached end node "end"' });
    expect(model.maxInFlight).toBe(3);
    expect(store.run("r1").outputs).toEqual({ answer: "13" });
    const rows = store.steps("r1");
    expect(rows.map((s) => `${s.nodeId}:${s.status}:${s.attempt}`).sort()).toEqual(
      ["aggregator", "end", "solver1", "solver2", "solver3", "start"].map((n) => `${n}:succeeded:1`),
    );
    const solverCalls = model.calls.filter((c) => c.model?.startsWith("model-"));
    expect(solverCalls.every((c) => c.messages.length === 2 && !c.messages.some((m) => m.content.includes("13")))).toBe(
      true,
    );
    const seqs = store.run("r1").events.map((e) => e.seq);
    expectContiguous(seqs);
    expect(ports.published).toEqual(seqs);
    const types = store.run("r1").events.map((e) => e.event.type);
    expect(types[0]).toBe("run_started");
    expect(types.at(-1)).toBe("run_finished");
  });

  it("a failing solver fails the join at once, aborting the other solvers' calls", async () => {
    const { ports, model, store } = setup(majorityVote(), (c) =>
      c.model === "model-2"
        ? { error: new ModelCallError("permanent", "invalid api key", 401), delayMs: 10 }
        : c.model?.startsWith("model-")
          ? { hang: true }
          : { content: "x" },
    );
    const started = Date.now();
    const outcome = await runJob(ports, "r1", { owner: "w1" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(outcome).toMatchObject({ kind: "terminal", status: "failed" });
    expect(store.run("r1").reason).toBe(
      'Step "solver2" (iteration 1) failed: model call failed (permanent, HTTP 401): invalid api key',
    );
    const hung = model.calls.filter((c) => c.model === "model-1" || c.model === "model-3");
    expect(hung.every((c) => c.signal.aborted)).toBe(true);
    const byNode = Object.fromEntries(store.steps("r1").map((s) => [s.nodeId, s.status]));
    expect(byNode).toEqual({ start: "succeeded", solver1: "cancelled", solver2: "failed", solver3: "cancelled" });
  });
});

describe("driver: scenario A (R4 feedback through the driver)", () => {
  it("re-enters the outline with the evaluator's critique and runs the writer once", async () => {
    let verdicts = 0;
    const { ports, model, store } = setup(
      articleWriter(),
      (c) => {
        if (c.kind === "structured") return { value: { branch: ++verdicts <= 2 ? "revise" : "approved" } };
        const task = taskOf(c);
        if (task.startsWith("Judge")) return { content: `critique ${verdicts + 1}` };
        return { content: task.startsWith("Outline") ? "an outline" : "text" };
      },
      { topic: "owls" },
    );
    const outcome = await runJob(ports, "r1", { owner: "w1" });
    expect(outcome).toMatchObject({ kind: "terminal", status: "succeeded" });
    const outlines = model.calls.filter((c) => taskOf(c).startsWith("Outline"));
    expect(outlines).toHaveLength(3);
    expect(taskOf(outlines[0]!)).toBe("Outline an article on owls. ");
    expect(taskOf(outlines[1]!)).toBe("Outline an article on owls. critique 1");
    expect(model.calls.filter((c) => taskOf(c).startsWith("Write"))).toHaveLength(1);
    expect(
      store
        .steps("r1")
        .filter((s) => s.nodeId === "outline")
        .map((s) => s.iteration),
    ).toEqual([1, 2, 3]);
  });
});

const chain = (extra: { timeoutMs?: number; runTimeoutMs?: number } = {}) =>
  buildWorkflow({
    limits: { maxSteps: 100, maxIterationsPerLoop: 3, runTimeoutMs: extra.runTimeoutMs ?? 60_000, maxTurnsPerVisit: 8 },
    nodes: [
      startNode(),
      agentNode("a", ["done"], extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
      agentNode("b"),
      endNode("end", { r: "{{nodes.b.output}}" }),
    ],
    edges: [fwd("start", "next", "a"), fwd("a", "done", "b"), fwd("b", "done", "end")],
  });

describe("driver: cancel, timeouts, deadline (R9, D8)", () => {
  it("a cancel request aborts the in-flight model call and ends the run cancelled", async () => {
    const { ports, model, store } = setup(chain(), () => ({ hang: true }));
    setTimeout(() => void store.requestCancel("r1", "changed my mind"), 40);
    const outcome = await runJob(ports, "r1", { owner: "w1", cancelPollMs: 10 });
    expect(outcome).toEqual({ kind: "terminal", status: "cancelled", reason: "Cancelled: changed my mind" });
    expect(model.calls[0]?.signal.aborted).toBe(true);
    expect(store.steps("r1").find((s) => s.nodeId === "a")?.status).toBe("cancelled");
  });

  it("a hung step is aborted at its timeout and marked timed_out", async () => {
    const { ports, model, store } = setup(chain({ timeoutMs: 50 }), () => ({ hang: true }));
    const outcome = await runJob(ports, "r1", { owner: "w1" });
    expect(outcome).toEqual({
      kind: "terminal",
      status: "failed",
      reason: 'Step "a" (iteration 1) timed out after 50 ms',
    });
    expect(store.steps("r1").find((s) => s.nodeId === "a")?.status).toBe("timed_out");
    expect(model.calls[0]?.signal.aborted).toBe(true);
  });

  it("the run deadline holds: budget_exhausted naming runTimeoutMs", async () => {
    const { ports } = setup(chain({ runTimeoutMs: 80 }), () => ({ hang: true }));
    const started = Date.now();
    const outcome = await runJob(ports, "r1", { owner: "w1" });
    expect(outcome).toMatchObject({
      kind: "terminal",
      status: "budget_exhausted",
      reason: "runTimeoutMs (80) elapsed",
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("the shared token budget stops parallel branches (L2): overshoot at most the calls in flight", async () => {
    const wf = majorityVote();
    wf.limits.tokenBudget = 40;
    const { ports, store } = setup(wf, (c) => ({
      content: "1",
      usage: { promptTokens: 10, completionTokens: 5 },
      delayMs: c.model === "model-3" ? 30 : 5,
    }));
    const outcome = await runJob(ports, "r1", { owner: "w1" });
    expect(outcome).toMatchObject({ kind: "terminal", status: "budget_exhausted" });
    expect(store.run("r1").events.at(-1)?.event).toMatchObject({ type: "run_finished", limit: "tokenBudget" });
    const run = store.run("r1");
    expect(run.promptTokens + run.completionTokens).toBe(45);
    expect(store.steps("r1").some((s) => s.nodeId === "aggregator")).toBe(false);
  });
});

describe("driver: commits per step", () => {
  it("a step's usage report and result (and whatever else queued meanwhile) land in one commit", async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `n${i}`);
    const wf = buildWorkflow({
      nodes: [startNode(), ...ids.map((id) => agentNode(id)), endNode()],
      edges: [
        fwd("start", "next", "n0"),
        ...ids.slice(1).map((id, i) => fwd(ids[i]!, "done", id)),
        fwd("n19", "done", "end"),
      ],
    });
    const { ports, store } = setup(wf, () => ({ content: "ok" }));
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    // one commit per agent step, plus the first (run start; the instant start step and n0's start ride along)
    expect(store.commits).toBe(21);
    expect(store.run("r1").events.filter((e) => e.event.type === "tokens_used")).toHaveLength(20);
  });

  it("instant steps (start, end) are started and finished in the commit that starts them, in event order", async () => {
    const { ports, store } = setup(chain(), () => ({ content: "x" }));
    const seen: string[][] = [];
    store.beforeCommit = (_id, c) =>
      seen.push((c.events ?? []).map((e) => ("nodeId" in e ? `${e.type}:${e.nodeId}` : e.type)));
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(seen[0]).toEqual(["run_started", "step_started:start", "step_finished:start", "step_started:a"]);
    expect(seen.at(-1)?.slice(-4)).toEqual([
      "step_finished:b",
      "step_started:end",
      "step_finished:end",
      "run_finished",
    ]);
    expect(store.steps("r1").every((s) => s.status === "succeeded" && s.finishedAt !== null)).toBe(true);
    // the end step renders from the state of its own batch (b's output, planned just before it)
    expect(store.run("r1").outputs).toEqual({ r: "x" });
  });

  it("a custom executor for an instant kind runs as an ordinary step (its own commit)", async () => {
    const { ports, store } = setup(chain(), () => ({ content: "x" }));
    let n = 0;
    store.beforeCommit = () => void n++;
    const executors = {
      ...defaultExecutors,
      start: async () => ({
        status: "succeeded" as const,
        output: {},
        branch: "next",
        usage: { promptTokens: 0, completionTokens: 0 },
        latencyMs: 0,
      }),
    };
    expect(await runJob(ports, "r1", { owner: "w1", executors })).toMatchObject({
      kind: "terminal",
      status: "succeeded",
    });
    const instant = n;
    n = 0;
    const again = setup(chain(), () => ({ content: "x" }));
    again.store.beforeCommit = () => void n++;
    expect(await runJob(again.ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(instant).toBe(n + 1);
  });
});

describe("driver: progress events share the next commit (emitLingerMs)", () => {
  const progressing = (delayMs: number) => ({
    ...defaultExecutors,
    agent: async (ctx: Parameters<typeof defaultExecutors.agent>[0]) => {
      ctx.emit({ type: "step_progress", nodeId: ctx.node.id, iteration: ctx.iteration, message: "working" });
      await new Promise((r) => setTimeout(r, delayMs));
      return {
        status: "succeeded" as const,
        output: ctx.node.id,
        usage: { promptTokens: 0, completionTokens: 0 },
        latencyMs: delayMs,
      };
    },
  });
  const kinds = (store: ReturnType<typeof setup>["store"]) => {
    const seen: string[][] = [];
    store.beforeCommit = (_id, c) => seen.push((c.events ?? []).map((e) => e.type));
    return seen;
  };

  it("a quick step's progress is committed with its result", async () => {
    const { ports, store } = setup(chain(), () => ({ content: "x" }));
    const seen = kinds(store);
    expect(await runJob(ports, "r1", { owner: "w1", executors: progressing(5) })).toMatchObject({
      kind: "terminal",
      status: "succeeded",
    });
    expect(seen).toHaveLength(3);
    expect(seen[1]).toEqual(["step_progress", "step_finished", "step_started"]);
  });

  it("a slow step's progress is committed after the linger, before the step ends; 0 commits it at once", async () => {
    for (const linger of [30, 0]) {
      const { ports, store } = setup(chain(), () => ({ content: "x" }));
      const seen = kinds(store);
      expect(
        await runJob(ports, "r1", { owner: "w1", executors: progressing(800), emitLingerMs: linger }),
      ).toMatchObject({ kind: "terminal", status: "succeeded" });
      expect(seen).toHaveLength(5);
      expect(seen[1]).toEqual(["step_progress"]);
      expect(seen[2]).toEqual(["step_finished", "step_started"]);
    }
  });
});

describe("driver: a run cancelled before it started", () => {
  it("ends cancelled in the first commit without executing anything", async () => {
    const { ports, model, store } = setup(chain(), () => ({ content: "x" }));
    await store.requestCancel("r1", "never mind");
    expect(await runJob(ports, "r1", { owner: "w1" })).toEqual({
      kind: "terminal",
      status: "cancelled",
      reason: "Cancelled: never mind",
    });
    expect(model.calls).toHaveLength(0);
    expect(store.commits).toBe(1);
    expect(store.steps("r1")).toEqual([]);
    expect(store.run("r1").events.map((e) => e.event.type)).toEqual(["cancel_requested", "run_finished"]);
  });
});

describe("driver: event publication is a wake-up only", () => {
  it("a hanging or failing publisher never stalls or fails the run (D5)", async () => {
    const { ports, store } = setup(chain(), () => ({ content: "x" }));
    let calls = 0;
    ports.events = {
      published: (_id, events) => {
        calls++;
        expect(events.every((e) => store.run("r1").events.some((s) => s.seq === e.seq))).toBe(true);
        if (calls % 2) throw new Error("redis down");
        return new Promise(() => undefined);
      },
    };
    // one wake-up per commit (no batching window), so the publisher fails and hangs several times
    expect(await runJob(ports, "r1", { owner: "w1", wakeWindowMs: 0 })).toMatchObject({
      kind: "terminal",
      status: "succeeded",
    });
    expect(calls).toBeGreaterThan(2);
  });
});

describe("driver: wake-ups are batched per window (wakeWindowMs)", () => {
  const publishes = (ports: ReturnType<typeof setup>["ports"]) => {
    const calls: number[][] = [];
    ports.events = { published: (_id, events) => void calls.push(events.map((e) => e.seq)) };
    return calls;
  };

  it("a run of quick steps sends fewer wake-ups than commits, every seq once, the last before the job returns", async () => {
    const { ports, store } = setup(chain(), () => ({ content: "x" }));
    const calls = publishes(ports);
    expect(await runJob(ports, "r1", { owner: "w1", wakeWindowMs: 1_000 })).toMatchObject({
      kind: "terminal",
      status: "succeeded",
    });
    const seqs = store.run("r1").events.map((e) => e.seq);
    expect(calls.flat()).toEqual(seqs);
    expect(calls.length).toBeLessThan(store.commits);
    expect(calls).toHaveLength(2);
    expect(store.run("r1").events.find((e) => e.seq === calls.at(-1)!.at(-1))?.event.type).toBe("run_finished");
  });

  it("0 sends one wake-up per commit; steps slower than the window are not delayed", async () => {
    for (const [window, delayMs] of [
      [0, 0],
      [5, 30],
    ] as const) {
      const { ports, store } = setup(chain(), () => ({ content: "x", delayMs }));
      const calls = publishes(ports);
      expect(await runJob(ports, "r1", { owner: "w1", wakeWindowMs: window })).toMatchObject({
        kind: "terminal",
        status: "succeeded",
      });
      expect(calls).toHaveLength(store.commits);
      expect(calls.flat()).toEqual(store.run("r1").events.map((e) => e.seq));
    }
  });
});

describe("driver: scenarios C and D end to end over fake ports", () => {
  it("C: every worker is handed work and hands back; handoffs are stored events", async () => {
    const { ports, store } = setup(
      financialAnalyst(),
      (c) => {
        const sys = systemOf(c.messages);
        if (!sys.startsWith("Delegate")) return { content: `${sys.split(" ")[0]} done` };
        if (c.messages.some((m) => m.role === "tool")) return { content: "final report" };
        return {
          toolCalls: [
            { id: "1", name: "handoff_to_docs", args: { task: "filings" } },
            { id: "2", name: "handoff_to_market", args: { task: "market" } },
          ],
        };
      },
      { question: "Buy?" },
    );
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    const handoffs = store
      .run("r1")
      .events.flatMap((e) => (e.event.type === "handoff" ? [`${e.event.phase}:${e.event.worker}`] : []));
    expect(handoffs).toEqual(["handoff:docs", "handback:docs", "handoff:market", "handback:market"]);
    expect(store.run("r1").outputs).toEqual({ report: "final report" });
  });

  it("D: a refund request never runs the sales agent and reaches the shared end", async () => {
    const { ports, model, store } = setup(
      refundTriage(),
      (c) => (c.kind === "structured" ? { value: { branch: "refund" } } : { content: "refund issued" }),
      { request: "money back" },
    );
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(model.calls.some((c) => taskOf(c).startsWith("Sell"))).toBe(false);
    expect(Object.fromEntries(store.steps("r1").map((s) => [s.nodeId, s.status]))).toEqual({
      start: "succeeded",
      triage: "succeeded",
      sales: "skipped",
      refunds: "succeeded",
      end: "succeeded",
    });
    expect(store.run("r1").outputs).toEqual({ reply: "refund issued" });
  });
});

describe("driver: a snapshot that names its saved version", () => {
  /** The store answers `versionId` with every snapshot, as the PostgreSQL store does. */
  function versioned(store: ReturnType<typeof fakePorts>["store"], versionId: string) {
    const claim = store.claimRun.bind(store);
    store.claimRun = async (runId, owner) => {
      const res = await claim(runId, owner);
      return res.ok ? { ok: true, run: { ...res.run, workflowVersionId: versionId } } : res;
    };
  }
  const chain = () =>
    buildWorkflow({
      name: "hi",
      nodes: [startNode(), agentNode("a"), endNode()],
      edges: [fwd("start", "next", "a"), fwd("a", "done", "end")],
    });

  it("checks the version's document once: a later run of it reuses that check (and runs on the shared, frozen document)", async () => {
    const versionId = `ver-${Math.random()}`;
    const model = new ScriptedModel(() => ({ content: "hi" }));
    const ports = fakePorts({ model });
    versioned(ports.store, versionId);
    ports.store.create("r1", chain());
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    // same version, but this copy would not even parse: the run only succeeds if the check is reused
    ports.store.create("r2", { nodes: "corrupt" });
    expect(await runJob(ports, "r2", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(
      ports.store
        .steps("r2")
        .map((s) => s.nodeId)
        .sort(),
    ).toEqual(["a", "end", "start"]);
  });

  it("without a version id, or with a custom check, every run parses and checks its own document", async () => {
    const model = new ScriptedModel(() => ({ content: "hi" }));
    const ports = fakePorts({ model });
    ports.store.create("r1", { nodes: "corrupt" });
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({
      kind: "terminal",
      status: "failed",
      reason: expect.stringContaining("Invalid workflow document"),
    });
    const custom = fakePorts({ model });
    versioned(custom.store, `ver-${Math.random()}`);
    custom.store.create("r2", chain());
    const outcome = await runJob(custom, "r2", { owner: "w1", checkWorkflow: () => "refused by the custom check" });
    expect(outcome).toMatchObject({
      kind: "terminal",
      status: "failed",
      reason: "Invalid workflow: refused by the custom check",
    });
  });
});
