import { describe, expect, it } from "vitest";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { fakePorts, ScriptedModel, type RecordedCall, type ScriptedReply } from "../testing/fakes";
import { MemoryStore } from "@/lib/engine/memory-store";
import { runJob } from "./index";

const taskOf = (c: RecordedCall) => c.messages.find((m) => m.role === "user")?.content ?? "";
const chain = buildWorkflow({
  nodes: [startNode(), agentNode("a"), agentNode("b"), endNode("end", { r: "{{nodes.b.output}}" })],
  edges: [fwd("start", "next", "a"), fwd("a", "done", "b"), fwd("b", "done", "end")],
});

function worker(store: MemoryStore, script: (c: RecordedCall) => ScriptedReply) {
  const model = new ScriptedModel(script);
  return { ports: fakePorts({ store, model }), model };
}

const callsFor = (model: ScriptedModel, node: string) => model.calls.filter((c) => taskOf(c) === `Do ${node}`).length;
const seqs = (store: MemoryStore) => store.run("r1").events.map((e) => e.seq);

describe("R7 durability: a killed worker loses no committed step", () => {
  it.each(["a", "b"])("crash before %s's result is committed: another worker repeats only that step", async (node) => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    let crashed = false;
    store.beforeCommit = (_id, c) => {
      if (!crashed && c.stepResults?.some((s) => s.nodeId === node)) {
        crashed = true;
        throw new Error("worker killed");
      }
    };
    const w1 = worker(store, (c) => ({ content: `${taskOf(c)} by w1` }));
    await expect(runJob(w1.ports, "r1", { owner: "w1" })).rejects.toThrow("worker killed");
    const w2 = worker(store, (c) => ({ content: `${taskOf(c)} by w2` }));
    expect(await runJob(w2.ports, "r1", { owner: "w2" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(callsFor(w1.model, node) + callsFor(w2.model, node)).toBe(2);
    const other = node === "a" ? "b" : "a";
    expect(callsFor(w1.model, other) + callsFor(w2.model, other)).toBe(1);
    const row = store.steps("r1").find((s) => s.nodeId === node);
    expect(row).toMatchObject({ attempt: 2, status: "succeeded", leaseOwner: "w2" });
    expect(store.run("r1").outputs).toEqual({ r: "Do b by w2" });
    expect(seqs(store)).toEqual(seqs(store).map((_, i) => i + 1));
    expect(store.run("r1").events.some((e) => e.event.type === "run_started" && e.event.resumed)).toBe(true);
  });

  it("D4 zombie: the second worker's result stands, the first one's late commit is refused", async () => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    let aStarted!: () => void;
    const started = new Promise<void>((resolve) => (aStarted = resolve));
    const slow = worker(store, (c) => {
      if (taskOf(c) === "Do a") aStarted();
      return { content: "slow", delayMs: taskOf(c) === "Do a" ? 150 : 0 };
    });
    const zombie = runJob(slow.ports, "r1", { owner: "w1" });
    await started;
    const fast = worker(store, () => ({ content: "fast" }));
    expect(await runJob(fast.ports, "r1", { owner: "w2" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(await zombie).toEqual({ kind: "lost_lease", reason: "lost_lease" });
    expect(store.refused).toContain("lost_lease");
    const a = store.steps("r1").find((s) => s.nodeId === "a");
    expect(a).toMatchObject({ attempt: 2, output: "fast", leaseOwner: "w2" });
    expect(seqs(store)).toEqual(seqs(store).map((_, i) => i + 1));
  });

  it("a claimed-terminal or unknown run is refused", async () => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    const w = worker(store, () => ({ content: "x" }));
    await runJob(w.ports, "r1", { owner: "w1" });
    expect(await runJob(w.ports, "r1", { owner: "w2" })).toEqual({ kind: "already_terminal" });
    expect(await runJob(w.ports, "nope", { owner: "w2" })).toEqual({ kind: "not_found" });
  });
});

describe("D10 graceful stop", () => {
  it("lets the in-flight step finish, hands the rest back and enqueues a resume", async () => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    const stop = new AbortController();
    const w1 = worker(store, (c) => {
      if (taskOf(c) === "Do a") stop.abort();
      return { content: "one", delayMs: 60 };
    });
    expect(await runJob(w1.ports, "r1", { owner: "w1", stop: stop.signal, stopGraceMs: 2_000 })).toEqual({
      kind: "handed_back",
      inFlight: 1,
    });
    expect(w1.ports.enqueued).toEqual(["r1"]);
    expect(store.run("r1").leaseOwner).toBeNull();
    expect(store.steps("r1").find((s) => s.nodeId === "a")?.status).toBe("succeeded");
    const w2 = worker(store, () => ({ content: "two" }));
    expect(await runJob(w2.ports, "r1", { owner: "w2" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(callsFor(w1.model, "a") + callsFor(w2.model, "a")).toBe(1);
    expect(callsFor(w1.model, "b") + callsFor(w2.model, "b")).toBe(1);
  });

  it("after the grace period aborts the in-flight step and hands it back for re-dispatch", async () => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    const stop = new AbortController();
    const w1 = worker(store, () => {
      stop.abort();
      return { hang: true };
    });
    expect(await runJob(w1.ports, "r1", { owner: "w1", stop: stop.signal, stopGraceMs: 30 })).toEqual({
      kind: "handed_back",
      inFlight: 1,
    });
    expect(w1.model.calls[0]?.signal.aborted).toBe(true);
    const w2 = worker(store, () => ({ content: "two" }));
    expect(await runJob(w2.ports, "r1", { owner: "w2" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(store.steps("r1").find((s) => s.nodeId === "a")).toMatchObject({ attempt: 2, status: "succeeded" });
  });
});

describe("the engine refuses to start an invalid workflow", () => {
  it("ends the run failed with the validation errors, running nothing", async () => {
    const store = new MemoryStore();
    store.create("r1", buildWorkflow({ nodes: [startNode(), agentNode("a")], edges: [fwd("start", "next", "a")] }), {});
    const w = worker(store, () => ({ content: "x" }));
    const outcome = await runJob(w.ports, "r1", { owner: "w1" });
    expect(outcome).toMatchObject({ kind: "terminal", status: "failed" });
    expect(outcome.kind === "terminal" && outcome.reason).toMatch(/^Invalid workflow: /);
    expect(w.model.calls).toHaveLength(0);
    expect(store.run("r1").events.map((e) => e.event.type)).toEqual(["run_finished"]);
  });
});

describe("R7: a step's model request waits for its durable start", () => {
  it("sends no request for a step before the commit holding its start has stood", async () => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    const commit = store.commit.bind(store);
    const durableAt = new Map<string, number>();
    store.commit = async (runId, c) => {
      await new Promise((r) => setTimeout(r, 30)); // a slow database
      const res = await commit(runId, c);
      if (res.ok) for (const s of c.stepStarts ?? []) durableAt.set(s.nodeId, performance.now());
      return res;
    };
    const askedAt = new Map<string, number>();
    const w = worker(store, (c) => {
      askedAt.set(taskOf(c).replace("Do ", ""), performance.now());
      return { content: "ok" };
    });
    expect(await runJob(w.ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    for (const node of ["a", "b"]) expect(askedAt.get(node)!, node).toBeGreaterThanOrEqual(durableAt.get(node)!);
  });
});
