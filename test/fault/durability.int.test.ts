import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { startRun } from "@/lib/runs/service";
import { createTestUser, createTestWorkflow } from "@/lib/runs/test-fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { flushPrefix, spawnWorker, stopWorker, waitFor, waitTerminal, type WorkerProcess } from "@/test/helpers/worker";

/**
 * Durable execution with real worker processes (reliability-security.md D2, D3, D4, D6, D9, D10):
 * SIGKILL, SIGSTOP/SIGCONT (zombie), SIGTERM and loss of this prefix's Redis keys mid-run.
 */
const database = useTestDatabase();
const prefix = testQueuePrefix();
let model: ScriptedServer;
let ownerId = "";
const workers: WorkerProcess[] = [];

const start = (env?: Record<string, string>) => {
  const w = spawnWorker({ databaseUrl: database.current.url, prefix, modelPort: model.port, ...(env ? { env } : {}) });
  workers.push(w);
  return w;
};

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = prefix;
  model = await startScriptedServer({
    fixtures: [{ rules: [
      { id: "d2", match: { system: "[[d2]]" }, sequence: [{ text: "never delivered", delayMs: 60_000 }, { text: "D2 recovered." }] },
      { id: "d3", match: { system: "[[d3]]" }, reply: { text: "never delivered", delayMs: 120_000 } },
      { id: "d4", match: { system: "[[d4]]" }, sequence: [{ text: "ZOMBIE answer", delayMs: 4_000 }, { text: "SECOND worker answer" }] },
      { id: "d6", match: { system: "[[d6]]" }, reply: { text: "D6 slow step", delayMs: 2_500 } },
      { id: "d9-fail", match: { system: "[[d9-fail]]" }, fault: { kind: "http", status: 403, message: "forbidden for this branch" } },
      { id: "d9-slow", match: { system: "[[d9-slow]]" }, reply: { text: "slow branch", delayMs: 30_000 } },
      { id: "d10", match: { system: "[[d10]]" }, reply: { text: "D10 step done", delayMs: 1_500 } },
      { id: "plain", match: {}, priority: -1, reply: { text: "ok" } },
    ] }],
  });
  ownerId = (await createTestUser()).id;
});

/** Stops every worker this file started (each test starts its own, so tests never share one). */
async function stopAll(): Promise<void> {
  for (const w of workers.splice(0)) {
    w.child.kill("SIGCONT");
    await stopWorker(w, 5_000);
  }
}
afterEach(stopAll);

afterAll(async () => {
  await stopAll();
  await runsQueue().obliterate({ force: true }).catch(() => undefined);
  await closeRunsQueue();
  await closeApiRedis();
  await model?.close();
});

/** start → n1 → … → end; `markers[i]` goes into agent i's instructions. */
function chain(name: string, markers: string[]): WorkflowInput {
  return {
    name,
    agents: markers.map((m, i) => ({ key: `a${i + 1}`, name: `A${i + 1}`, instructions: `${m} Agent ${i + 1}.`, model: { model: "scripted-demo" } })),
    nodes: [{ id: "start", type: "start" }, ...markers.map((_, i) => ({ id: `n${i + 1}`, type: "agent" as const, agent: `a${i + 1}`, task: `Step ${i + 1}` })), { id: "end", type: "end" }],
    edges: [...["start", ...markers.map((_, i) => `n${i + 1}`)].map((s, i, all) => ({ id: `e${i}`, source: s, sourceHandle: i === 0 ? "next" : "done", target: all[i + 1] ?? "end" }))],
  };
}

async function launch(doc: WorkflowInput): Promise<string> {
  const { workflowId } = await createTestWorkflow(ownerId, doc);
  return (await startRun(ownerId, workflowId, { inputs: {} })).run.id;
}
const runningStep = (runId: string, nodeId: string) => waitFor(async () => db().step.findFirst({ where: { runId, nodeId, status: "running" } }), 60_000, `${nodeId} running`);
const seqContiguous = (events: { seq: number }[]) => expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

describe("D2: SIGKILL", () => {
  it("D2: a worker SIGKILLed mid-step — the run is re-dispatched and finishes; completed steps do not run again", { timeout: 120_000 }, async () => {
    const runId = await launch(chain("D2", ["[[p1]]", "[[d2]]", "[[p3]]"]));
    const a = start();
    await a.ready;
    await runningStep(runId, "n2");
    const b = start();
    await b.ready;
    a.child.kill("SIGKILL");
    const killedAt = Date.now();
    const { run, steps, events } = await waitTerminal(runId, 90_000);
    const recoveryMs = (steps.find((s) => s.nodeId === "n2")?.finishedAt?.getTime() ?? NaN) - killedAt;
    console.info(`D2 time to recovery (SIGKILL → killed step committed on another worker): ${recoveryMs} ms`);
    expect(run.status, run.reason ?? "").toBe("succeeded");
    expect(steps.find((s) => s.nodeId === "n2")).toMatchObject({ attempt: 2, status: "succeeded" });
    expect(steps.filter((s) => s.nodeId === "n1")).toHaveLength(1);
    expect(model.requests().filter((q) => q.body && JSON.stringify(q.body).includes("[[p1]]"))).toHaveLength(1);
    expect(recoveryMs).toBeLessThan(150_000); // ≈ lockDuration + stalledInterval when idle (12 s measured); far more under heavy load
    seqContiguous(events);
  });

});

describe("D4: zombie worker (process frozen past its lock with SIGSTOP, then resumed)", () => {
  it("the second worker's result stands; the zombie's late commit is refused (0 double commits)", { timeout: 120_000 }, async () => {
    const runId = await launch(chain("D4", ["[[d4]]"]));
    const zombie = start();
    await zombie.ready;
    await runningStep(runId, "n1");
    zombie.child.kill("SIGSTOP");
    const second = start();
    await second.ready;
    const { run, steps, events } = await waitTerminal(runId, 90_000);
    zombie.child.kill("SIGCONT");
    await new Promise((r) => setTimeout(r, 5_000)); // the zombie wakes, its model answer arrives, it tries to commit
    expect(run.status, run.reason ?? "").toBe("succeeded");
    const n1 = steps.filter((s) => s.nodeId === "n1");
    expect(n1).toHaveLength(1);
    const after = await db().step.findFirstOrThrow({ where: { runId, nodeId: "n1" } });
    expect(JSON.stringify(after.output)).toContain("SECOND worker answer");
    const finals = await db().runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(finals.filter((e) => e.type === "step_finished" && (e.payload as { nodeId?: string }).nodeId === "n1")).toHaveLength(1);
    expect(finals.filter((e) => e.type === "run_finished")).toHaveLength(1);
    expect(finals.length).toBe(events.length);
    seqContiguous(finals);
  });
});

describe("D6: this prefix's Redis keys deleted mid-run", () => {
  it("the reconciler re-enqueues the run from PostgreSQL; no completed step runs again", { timeout: 120_000 }, async () => {
    const w = start();
    await w.ready;
    const runId = await launch(chain("D6", ["[[d6]] one", "[[d6]] two", "[[d6]] three", "[[d6]] four"]));
    await waitFor(async () => db().step.findFirst({ where: { runId, nodeId: "n2", status: "running" } }), 60_000, "n2 running");
    await stopWorker(w); // SIGTERM: hands the run back to the queue...
    expect(await flushPrefix(prefix)).toBeGreaterThan(0); // ...and then Redis loses the job
    const done = (await db().step.findMany({ where: { runId, status: "succeeded" } })).map((s) => s.nodeId);
    expect(done).toContain("n1");
    const calls = (label: string) => model.requests().filter((q) => JSON.stringify(q.body).includes(`[[d6]] ${label}`)).length;
    const before = Object.fromEntries(["one", "two", "three", "four"].map((l) => [l, calls(l)]));
    const b = start();
    await b.ready;
    const { run, steps, events } = await waitTerminal(runId, 90_000);
    expect(run.status, run.reason ?? "").toBe("succeeded");
    for (const n of ["n1", "n2", "n3", "n4"]) expect(steps.filter((s) => s.nodeId === n)).toHaveLength(1);
    // steps committed before the loss never call the model again; at most the in-flight one repeats
    ["one", "two", "three", "four"].forEach((label, i) => {
      if (done.includes(`n${i + 1}`)) expect(calls(label), label).toBe(before[label]);
      else expect(calls(label), label).toBeLessThanOrEqual((before[label] ?? 0) + 1);
    });
    expect(b.logs.some((l) => l.includes("reconcil"))).toBe(true);
    seqContiguous(events);
  });
});

describe("D9: a failing parallel branch", () => {
  it("takes the join to a terminal state within seconds while the other branch is still slow", { timeout: 60_000 }, async () => {
    const w = start();
    await w.ready;
    const doc: WorkflowInput = {
      name: "D9",
      agents: [
        { key: "f", name: "F", instructions: "[[d9-fail]]", model: { model: "scripted-demo" } },
        { key: "s", name: "S", instructions: "[[d9-slow]]", model: { model: "scripted-demo" } },
        { key: "j", name: "J", instructions: "[[p-join]]", model: { model: "scripted-demo" } },
      ],
      nodes: [{ id: "start", type: "start" }, { id: "fail", type: "agent", agent: "f", task: "x" }, { id: "slow", type: "agent", agent: "s", task: "x" }, { id: "join", type: "agent", agent: "j", task: "x", join: "all" }, { id: "end", type: "end" }],
      edges: [
        { id: "e1", source: "start", sourceHandle: "next", target: "fail" },
        { id: "e2", source: "start", sourceHandle: "next", target: "slow" },
        { id: "e3", source: "fail", sourceHandle: "done", target: "join" },
        { id: "e4", source: "slow", sourceHandle: "done", target: "join" },
        { id: "e5", source: "join", sourceHandle: "done", target: "end" },
      ],
    };
    const t0 = Date.now();
    const runId = await launch(doc);
    const { run, steps } = await waitTerminal(runId, 20_000);
    const ms = Date.now() - t0;
    console.info(`D9 failing branch → terminal run in ${ms} ms`);
    expect(run.status).toBe("failed");
    expect(run.reason ?? "").toMatch(/fail/);
    expect(run.reason ?? "").toMatch(/403|forbidden/i);
    expect(ms).toBeLessThan(10_000);
    expect(steps.find((s) => s.nodeId === "join")).toBeUndefined();
    expect(steps.find((s) => s.nodeId === "slow")?.status).not.toBe("running");
  });
});

describe("D10: SIGTERM mid-run (multi-step)", () => {
  it("in-flight steps finish or are handed back; the run completes on the next worker with nothing lost", { timeout: 120_000 }, async () => {
    const first = start({ WEFT_WORKER_SHUTDOWN_GRACE_MS: "5000" });
    await first.ready;
    const runId = await launch(chain("D10", ["[[d10]] a", "[[d10]] b", "[[d10]] c"]));
    await runningStep(runId, "n2");
    expect(await stopWorker(first)).toBe(0);
    const mid = await db().run.findUniqueOrThrow({ where: { id: runId }, include: { steps: true } });
    expect(mid.status).toBe("running");
    expect(mid.leaseOwner).toBeNull();
    const second = start();
    await second.ready;
    const { run, steps, events } = await waitTerminal(runId, 90_000);
    expect(run.status, run.reason ?? "").toBe("succeeded");
    for (const n of ["n1", "n2", "n3"]) expect(steps.filter((s) => s.nodeId === n && s.status === "succeeded")).toHaveLength(1);
    expect(model.requests().filter((q) => JSON.stringify(q.body).includes("[[d10]] a"))).toHaveLength(1);
    seqContiguous(events);
  });
});
