import { afterEach, describe, expect, it } from "vitest";
import { parsePlannerState } from "../planner";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { FakeLiveness, fakePorts, ScriptedModel } from "../testing/fakes";
import { MemoryStore } from "@/lib/engine/memory-store";
import { runJob, type DriverOutcome } from "./index";
import { judge } from "./takeover";

/**
 * The crash-loop rule on takeover (D3 vs D1's false stalls), in memory: workers are run jobs that
 * stop in step a's model call (it never answers); the next worker's claim takes the run over.
 * Whether that interruption was a crash is FakeLiveness's answer about the previous owner.
 */
const chain = buildWorkflow({
  nodes: [startNode(), agentNode("a"), endNode("end", { r: "{{nodes.a.output}}" })],
  edges: [fwd("start", "next", "a"), fwd("a", "done", "end")],
});
const lingering: { stop: AbortController; job: Promise<DriverOutcome> }[] = [];

afterEach(async () => {
  for (const z of lingering) z.stop.abort();
  await Promise.all(lingering.splice(0).map((z) => z.job));
});

/** A worker that takes the run over and is interrupted in step a's model call (its job lingers like a frozen or dead process). */
async function interruptedWorker(store: MemoryStore, liveness: FakeLiveness, owner: string): Promise<void> {
  let inCall!: () => void;
  const called = new Promise<void>((resolve) => (inCall = resolve));
  const model = new ScriptedModel(() => (inCall(), { hang: true }));
  const stop = new AbortController();
  const job = runJob(fakePorts({ store, model, liveness }), "r1", { owner, stop: stop.signal, stopGraceMs: 0 });
  lingering.push({ stop, job });
  await Promise.race([called, job]);
}

/** A healthy worker taking the run over last: answers every model call. */
function finalWorker(store: MemoryStore, liveness: FakeLiveness) {
  const model = new ScriptedModel(() => ({ content: "answer" }));
  return { model, outcome: runJob(fakePorts({ store, model, liveness }), "r1", { owner: "w4" }) };
}

const stepA = (store: MemoryStore) => store.steps("r1").find((s) => s.nodeId === "a");
const verdicts = (store: MemoryStore) =>
  parsePlannerState(store.run("r1").plannerState)?.nodes.a?.interruptions?.map((i) => i.verdict);

describe("crash-loop cap on takeover (D3) with worker liveness", () => {
  it("a step whose workers died three times ends the run failed in one terminal commit that closes the dead worker's row", async () => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    const liveness = new FakeLiveness(); // w1–w3 never beat again: dead
    for (const owner of ["w1", "w2", "w3"]) await interruptedWorker(store, liveness, owner);
    expect(stepA(store)).toMatchObject({ status: "running", attempt: 3, leaseOwner: "w3" });
    const commitsBefore = store.commits;

    const last = finalWorker(store, liveness);
    const outcome = await last.outcome;
    const reason =
      'Step "a" (iteration 1) was interrupted 3 times; giving up after 3 attempts (its worker died each time)';
    expect(outcome).toEqual({ kind: "terminal", status: "failed", reason });
    expect(store.commits - commitsBefore).toBe(1); // resume, cancellation and run_finished together
    expect(store.run("r1")).toMatchObject({ status: "failed", reason, leaseOwner: "w4" });
    expect(stepA(store)).toMatchObject({
      status: "cancelled",
      attempt: 3,
      leaseOwner: "w3",
      error: `Cancelled: ${reason}`,
    });
    expect(last.model.calls).toHaveLength(0);
    expect(verdicts(store)).toEqual(["crashed", "crashed", "crashed"]);
    const events = store.run("r1").events;
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.event.type === "run_finished")).toHaveLength(1);
    expect(events.at(-1)?.event).toMatchObject({ type: "run_finished", status: "failed", reason });
  });

  it("takeovers from live workers (false stalls) do not count: the fourth attempt runs and the run succeeds", async () => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    const liveness = new FakeLiveness();
    for (const owner of ["w1", "w2", "w3"]) {
      liveness.alive.add(owner); // it keeps beating after losing the run
      await interruptedWorker(store, liveness, owner);
    }
    const last = finalWorker(store, liveness);
    expect(await last.outcome).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(stepA(store)).toMatchObject({ status: "succeeded", attempt: 4, leaseOwner: "w4", output: "answer" });
    expect(verdicts(store)).toEqual(["alive", "alive", "pending"]); // the latest is not needed to decide: nobody waited for it
  });

  it("when a pending verdict decides the run, the takeover waits for it: a worker that beats again was not a crash", async () => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    const liveness = new FakeLiveness(150, 10);
    for (const owner of ["w1", "w2", "w3"]) await interruptedWorker(store, liveness, owner);
    await new Promise((r) => setTimeout(r, 200)); // w1 and w2 have been silent for longer than deadAfterMs: crashed
    const looks = liveness.looks;
    setTimeout(() => liveness.alive.add("w3"), 50); // w3 was frozen, not dead: it beats again during the wait
    const last = finalWorker(store, liveness);
    expect(await last.outcome).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(verdicts(store)).toEqual(["crashed", "crashed", "alive"]);
    expect(liveness.looks - looks).toBeGreaterThan(1); // it looked again while waiting
    expect(stepA(store)).toMatchObject({ status: "succeeded", attempt: 4 });
  });

  it("a worker that shut down gracefully (handed its step back) did not crash", async () => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    const liveness = new FakeLiveness();
    for (const owner of ["w1", "w2", "w3"]) {
      liveness.stopped.add(owner);
      await interruptedWorker(store, liveness, owner);
    }
    expect(await finalWorker(store, liveness).outcome).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(verdicts(store)).toEqual(["alive", "alive", "alive"]);
  });

  it("a pending verdict that decides the run is awaited until the silence proves a crash", async () => {
    const store = new MemoryStore();
    store.create("r1", chain, {});
    const liveness = new FakeLiveness(150, 10);
    for (const owner of ["w1", "w2", "w3"]) await interruptedWorker(store, liveness, owner);
    const t0 = Date.now();
    const outcome = await finalWorker(store, liveness).outcome;
    expect(outcome).toMatchObject({ kind: "terminal", status: "failed" });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100); // w3 was seen silent only at this takeover: ~150 ms of silence first
    expect(verdicts(store)).toEqual(["crashed", "crashed", "crashed"]);
  });

  it("judge: alive once the worker beats after the takeover, stopped or self; crashed after deadAfterMs of silence; else pending", () => {
    const i = { iteration: 1, attempt: 1, owner: "w", since: 1_000, verdict: "pending" as const };
    expect(judge(i, { beat: 1_001 }, 2_000, 500)).toBe("alive");
    expect(judge(i, { beat: 1_000, stopped: true }, 2_000, 500)).toBe("alive");
    expect(judge(i, { beat: null, self: true }, 2_000, 500)).toBe("alive");
    expect(judge(i, { beat: 1_000 }, 1_400, 500)).toBe("pending");
    expect(judge(i, { beat: 1_000 }, 1_500, 500)).toBe("crashed");
    expect(judge(i, { beat: null }, 1_500, 500)).toBe("crashed");
    expect(judge(i, undefined, 9_000, 500)).toBe("pending"); // liveness unavailable: nothing learnt
    expect(judge({ ...i, verdict: "crashed" }, { beat: 5_000 }, 9_000, 500)).toBe("crashed"); // a verdict, once known, stays
  });
});
