import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startRun } from "@/lib/runs/service";
import { createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import {
  alive,
  chainWorkflow,
  expectContiguousSeq,
  flushPrefix,
  modelCalls,
  stepsNow,
  stopWorker,
  waitFor,
  waitTerminal,
  workerOf,
  type WorkerProcess,
} from "@/test/helpers/worker";
import { useWorkerPool } from "@/test/helpers/worker-pool";

/**
 * Durable execution with real worker processes (docs/reliability.md: D2, D4, D6, D9, D10):
 * SIGKILL, SIGSTOP/SIGCONT (zombie), SIGTERM and loss of this prefix's Redis keys mid-run.
 *
 * The file keeps a pool of two worker processes (started once: a worker takes ~5 s to start on a
 * quiet machine, 30 s on a loaded one), and the tests run in an order that leaves two live workers
 * for the next: D9 (no fault) → D4 (the zombie resumes and stays) → D2 (the victim is replaced) →
 * D10 (the SIGTERMed worker is not replaced) → D6.
 *
 * Timing: the worker's stall settings are lib/queue/settings.ts (lock 10 s, stalled check every
 * 5 s; not configurable by env), so a SIGKILLed or frozen worker's run is re-delivered within
 * ≈ 15 s on a quiet machine; the spawned workers reconcile every 1 s (WEFT_RECONCILE_INTERVAL_MS)
 * and get 5 s of shutdown grace (WEFT_WORKER_SHUTDOWN_GRACE_MS). Every wait polls a condition with
 * a generous deadline (the CI machine has 2 loaded cores); nothing sleeps for a fixed time.
 */
/** One rule per marker so every model call is attributable to its step (request log `rule`). */
const ok = (id: string, text = `${id} ok`, delayMs = 0) => ({
  id,
  match: { system: `[[${id}]]` },
  reply: { text, ...(delayMs ? { delayMs } : {}) },
});

const pool = useWorkerPool({
  fixtures: [
    {
      rules: [
        ok("d2-1"),
        ok("d2-3"),
        // the first call hangs until its worker is killed; the re-dispatched attempt gets the answer
        {
          id: "d2-2",
          match: { system: "[[d2-2]]" },
          sequence: [{ text: "never delivered", delayMs: 120_000 }, { text: "D2 recovered." }],
        },
        // the zombie's answer arrives while it is frozen; the second worker's call is answered at once
        {
          id: "d4",
          match: { system: "[[d4]]" },
          sequence: [{ text: "ZOMBIE answer", delayMs: 3_000 }, { text: "SECOND worker answer" }],
        },
        ok("d6-1", "D6 one", 2_500),
        ok("d6-2", "D6 two", 2_500),
        ok("d6-3", "D6 three", 2_500),
        ok("d6-4", "D6 four", 2_500),
        {
          id: "d9-fail",
          match: { system: "[[d9-fail]]" },
          fault: { kind: "http", status: 403, message: "forbidden for this branch" },
        },
        ok("d9-slow", "slow branch", 60_000),
        ok("d9-join"),
        ok("d10-1", "D10 a", 1_500),
        ok("d10-2", "D10 b", 1_500),
        ok("d10-3", "D10 c", 1_500),
      ],
    },
  ],
  size: 2,
  workerEnv: { WEFT_WORKER_SHUTDOWN_GRACE_MS: "5000" },
});
const { workers, start, live, prefix } = pool;

/** The pool worker holding the step `nodeId` of `runId` while it runs. */
async function holderOf(runId: string, nodeId: string): Promise<WorkerProcess> {
  return waitFor(
    async () => {
      const step = (await stepsNow(runId)).find((s) => s.nodeId === nodeId && s.status === "running");
      return workerOf(live(), step?.leaseOwner);
    },
    120_000,
    `a live worker holding ${nodeId}`,
  );
}

async function launch(doc: WorkflowInput): Promise<string> {
  const { workflowId } = await createTestWorkflow(pool.workspaceId, doc);
  return (await startRun(pool.workspaceId, workflowId, { inputs: {} })).run.id;
}
const calls = (rule: string) => modelCalls(pool.model, rule);
const eventsOf = (runId: string) => db().runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } });

// the order above is part of the design (each test leaves the pool for the next): never shuffled
describe.sequential("durable execution with real worker processes", { shuffle: false }, () => {
  it(
    "D9: a failing parallel branch takes the join to a terminal state within seconds while the other branch is still slow",
    { timeout: 180_000 },
    async () => {
      const doc: WorkflowInput = {
        name: "D9",
        agents: [
          { key: "f", name: "F", instructions: "[[d9-fail]]", model: { model: "scripted-demo" } },
          { key: "s", name: "S", instructions: "[[d9-slow]]", model: { model: "scripted-demo" } },
          { key: "j", name: "J", instructions: "[[d9-join]]", model: { model: "scripted-demo" } },
        ],
        nodes: [
          { id: "start", type: "start" },
          { id: "fail", type: "agent", agent: "f", task: "x" },
          { id: "slow", type: "agent", agent: "s", task: "x" },
          { id: "join", type: "agent", agent: "j", task: "x", join: "all" },
          { id: "end", type: "end" },
        ],
        edges: [
          { id: "e1", source: "start", sourceHandle: "next", target: "fail" },
          { id: "e2", source: "start", sourceHandle: "next", target: "slow" },
          { id: "e3", source: "fail", sourceHandle: "done", target: "join" },
          { id: "e4", source: "slow", sourceHandle: "done", target: "join" },
          { id: "e5", source: "join", sourceHandle: "done", target: "end" },
        ],
      };
      const runId = await launch(doc);
      await waitFor(
        async () => calls("d9-fail") >= 1 && calls("d9-slow") >= 1,
        120_000,
        "both branches called the model",
      );
      const t0 = Date.now();
      const { run, steps, events } = await waitTerminal(runId, 60_000);
      const ms = Date.now() - t0;
      console.info(`D9 failing branch → terminal run in ${ms} ms (the slow branch would take 60 s)`);
      expect(run.status).toBe("failed");
      expect(run.reason ?? "").toMatch(/fail/);
      expect(run.reason ?? "").toMatch(/403|forbidden/i);
      expect(ms).toBeLessThan(20_000); // seconds, far below the slow branch's 60 s: no waiting at the join
      expect(steps.find((s) => s.nodeId === "join")).toBeUndefined();
      expect(steps.find((s) => s.nodeId === "fail")?.status).toBe("failed");
      expect(steps.find((s) => s.nodeId === "slow")?.status).not.toBe("running");
      expect(calls("d9-join")).toBe(0);
      expectContiguousSeq(events);
    },
  );

  it(
    "D4: zombie worker (frozen past its lock with SIGSTOP, then resumed) — the second worker's result stands; the zombie's late commit is refused",
    { timeout: 240_000 },
    async () => {
      const runId = await launch(chainWorkflow("D4", ["d4"]));
      // freeze only once the zombie's model call has reached the server: its scripted answer is consumed
      await waitFor(async () => calls("d4") === 1, 120_000, "zombie's model call in flight");
      const zombie = await holderOf(runId, "n1");
      zombie.child.kill("SIGSTOP");
      const second = live().find((w) => w !== zombie)!;
      const { run } = await waitTerminal(runId, 180_000);
      const settled = await eventsOf(runId);
      zombie.child.kill("SIGCONT");
      // the zombie wakes with its answer in the socket and tries to commit it: refused (lease lost)
      await waitFor(
        async () => zombie.logs.some((l) => /commit refused|lost_lease/.test(l)),
        90_000,
        "zombie's commit refused",
      );

      expect(run.status, run.reason ?? "").toBe("succeeded");
      expect(calls("d4")).toBe(2);
      const n1 = await db().step.findMany({ where: { runId, nodeId: "n1" } });
      expect(n1).toHaveLength(1);
      expect(n1[0]).toMatchObject({ status: "succeeded", attempt: 2 });
      expect(JSON.stringify(n1[0]?.output)).toContain("SECOND worker answer");
      expect(workerOf(workers, n1[0]?.leaseOwner)).toBe(second);
      const finals = await eventsOf(runId);
      expect(finals.length).toBe(settled.length); // the zombie wrote no event after the run ended
      expect(
        finals.filter((e) => e.type === "step_finished" && (e.payload as { nodeId?: string }).nodeId === "n1"),
      ).toHaveLength(1);
      expect(finals.filter((e) => e.type === "run_finished")).toHaveLength(1);
      expect(JSON.stringify(finals.map((e) => e.payload))).not.toContain("ZOMBIE answer");
      expectContiguousSeq(finals);
      expect((await db().run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("succeeded");
      expect(alive(zombie)).toBe(true); // it stays in the pool as a healthy worker
    },
  );

  it(
    "D2: a worker SIGKILLed mid-step — the step is re-dispatched (stall recovery) and the run finishes; completed steps do not run again",
    { timeout: 240_000 },
    async () => {
      expect(live()).toHaveLength(2); // the survivor is ready before the kill: recovery time is not start-up time
      const runId = await launch(chainWorkflow("D2", ["d2-1", "d2-2", "d2-3"]));
      // kill only once the step's model call is in flight (it would otherwise be the survivor's call that hangs)
      await waitFor(async () => calls("d2-2") === 1, 120_000, "d2-2 model call in flight");
      const victim = await holderOf(runId, "n2");
      const survivor = live().find((w) => w !== victim)!;
      victim.child.kill("SIGKILL");
      const killedAt = Date.now();
      await victim.exited;
      const replacement = start(); // a replacement for the next tests (it may also pick the run up); not awaited here

      const { run, steps, events } = await waitTerminal(runId, 180_000);
      const n2 = steps.find((s) => s.nodeId === "n2");
      const recoveryMs = (n2?.finishedAt?.getTime() ?? NaN) - killedAt;
      console.info(`D2 time to recovery (SIGKILL → killed step committed by the other worker): ${recoveryMs} ms`);
      expect(run.status, run.reason ?? "").toBe("succeeded");
      expect(n2).toMatchObject({ attempt: 2, status: "succeeded" });
      expect(JSON.stringify(n2?.output)).toContain("D2 recovered.");
      // Recovered by a live worker — the survivor or the replacement started above, whichever claimed it first — never the victim.
      const recoveredBy = workerOf(workers, n2?.leaseOwner);
      expect(recoveredBy).toBeDefined();
      expect(recoveredBy === survivor || recoveredBy === replacement).toBe(true);
      expect(recoveredBy).not.toBe(victim);
      for (const n of ["start", "n1", "n2", "n3", "end"])
        expect(
          steps.filter((s) => s.nodeId === n && s.status === "succeeded"),
          n,
        ).toHaveLength(1);
      expect(calls("d2-1")).toBe(1); // committed before the kill: never called again
      expect(calls("d2-2")).toBe(2);
      expect(calls("d2-3")).toBe(1);
      expect(recoveryMs).toBeGreaterThan(0);
      expect(events.filter((e) => e.type === "run_finished")).toHaveLength(1);
      expectContiguousSeq(events);
    },
  );

  it(
    "D10: SIGTERM mid-run — the in-flight step finishes or is handed back; the other worker completes the run with nothing lost",
    { timeout: 240_000 },
    async () => {
      await Promise.all(live().map((w) => w.ready)); // D2's replacement
      const runId = await launch(chainWorkflow("D10", ["d10-1", "d10-2", "d10-3"]));
      await waitFor(async () => calls("d10-2") === 1, 120_000, "n2's model call in flight");
      const first = await holderOf(runId, "n2");
      expect(await stopWorker(first, 60_000)).toBe(0);
      expect(first.logs.some((l) => l.includes('"msg":"worker stopped"'))).toBe(true);
      start(); // a replacement for D6; not awaited here
      expect(
        first.logs.some((l) => l.includes('"msg":"run job done"') && l.includes(runId) && l.includes("handed_back")),
        first.logs.filter((l) => l.includes(runId)).join("\n"),
      ).toBe(true);

      const { run, steps, events } = await waitTerminal(runId, 180_000);
      expect(run.status, run.reason ?? "").toBe("succeeded");
      for (const n of ["start", "n1", "n2", "n3", "end"])
        expect(
          steps.filter((s) => s.nodeId === n && s.status === "succeeded"),
          n,
        ).toHaveLength(1);
      // n2 (1.5 s) normally fits in the grace (4 s for steps) and finishes on the first worker; on a
      // starved machine it may be handed back instead and run once more on the next worker
      const n2 = steps.find((s) => s.nodeId === "n2");
      const n2FinishedFirst = workerOf(workers, n2?.leaseOwner) === first;
      console.info(`D10: the in-flight step ${n2FinishedFirst ? "finished within the grace" : "was handed back"}`);
      expect([calls("d10-1"), calls("d10-2"), calls("d10-3")]).toEqual([1, n2FinishedFirst ? 1 : 2, 1]);
      expect(workerOf(workers, steps.find((s) => s.nodeId === "n3")?.leaseOwner)).not.toBe(first);
      expectContiguousSeq(events);
    },
  );

  it(
    "D6: this prefix's Redis keys deleted mid-run — the reconciler re-enqueues the run from PostgreSQL; no completed step runs again",
    { timeout: 240_000 },
    async () => {
      await Promise.all(live().map((w) => w.ready)); // D10's replacement
      const runId = await launch(chainWorkflow("D6", ["d6-1", "d6-2", "d6-3", "d6-4"]));
      await waitFor(async () => calls("d6-2") === 1, 120_000, "n2's model call in flight");
      const holder = await holderOf(runId, "n2");
      const others = live().filter((w) => w !== holder);
      expect(others.length).toBeGreaterThan(0);
      for (const w of others) w.child.kill("SIGSTOP"); // nobody consumes the handed-back job before Redis loses it
      expect(await stopWorker(holder, 60_000)).toBe(0); // SIGTERM: hands the run back to the queue...
      expect(await flushPrefix(prefix)).toBeGreaterThan(0); // ...and then Redis loses the job
      const done = (await db().step.findMany({ where: { runId, status: "succeeded" } })).map((s) => s.nodeId);
      expect(done).toContain("n1");
      const rules = ["d6-1", "d6-2", "d6-3", "d6-4"];
      const before = Object.fromEntries(rules.map((r) => [r, calls(r)]));
      for (const w of others) w.child.kill("SIGCONT");

      const { run, steps, events } = await waitTerminal(runId, 180_000);
      expect(run.status, run.reason ?? "").toBe("succeeded");
      for (const n of ["start", "n1", "n2", "n3", "n4", "end"])
        expect(
          steps.filter((s) => s.nodeId === n && s.status === "succeeded"),
          n,
        ).toHaveLength(1);
      // steps committed before the loss never call the model again; only a handed-back one repeats
      rules.forEach((rule, i) => {
        if (done.includes(`n${i + 1}`)) expect(calls(rule), rule).toBe(before[rule]);
        else expect(calls(rule), rule).toBe((before[rule] ?? 0) + 1);
      });
      expect(others.some((w) => w.logs.some((l) => l.includes("re-enqueued orphaned runs") && l.includes(runId)))).toBe(
        true,
      );
      expectContiguousSeq(events);
    },
  );
});
