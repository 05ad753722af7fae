import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startRun } from "@/lib/runs/service";
import { createTestWorkflow } from "@/test/fixtures";
import {
  alive,
  chainWorkflow,
  expectContiguousSeq,
  modelCalls,
  stepsNow,
  waitFor,
  waitTerminal,
  workerOf,
  type WorkerProcess,
} from "@/test/helpers/worker";
import { useWorkerPool } from "@/test/helpers/worker-pool";

/**
 * False stalls are takeovers, not crashes (D1's failure mode, D3's counting rule): a worker that is
 * alive but frozen past its BullMQ lock (SIGSTOP, then SIGCONT once another worker has taken the
 * run over — as a CPU-starved worker on a loaded machine) loses the step to another worker each
 * time, but that interruption must not count toward the crash-loop cap (3): after three such
 * takeovers of the same step the fourth attempt runs and the run succeeds. Before the liveness
 * check (workers/liveness.ts) the third takeover failed the run with "interrupted 3 times".
 * Each takeover waits for BullMQ's stall recovery (lock 10 s + check every 5 s), so ≈ 3 × 15 s.
 */
// the frozen attempts' answers arrive while their worker is frozen (it wakes to a refused commit); the fourth answers at once
const late = { text: "FROZEN worker answer", delayMs: 45_000 };
const pool = useWorkerPool({
  fixtures: [
    {
      rules: [
        { id: "fs", match: { system: "[[fs]]" }, sequence: [late, late, late, { text: "fourth attempt answer" }] },
      ],
    },
  ],
  size: 2,
});
const { workers } = pool;

describe("false stalls", () => {
  it(
    "a step whose live worker is frozen past its lock three times is taken over each time, not failed as a crash loop",
    { timeout: 360_000 },
    async () => {
      const { workflowId } = await createTestWorkflow(pool.workspaceId, chainWorkflow("false stalls", ["fs"]));
      const runId = (await startRun(pool.workspaceId, workflowId, { inputs: {} })).run.id;
      const t0 = Date.now();
      const frozen: WorkerProcess[] = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        // freeze only once this attempt's model call has reached the server: the step is mid-flight
        const step = await waitFor(
          async () => {
            const s = (await stepsNow(runId)).find(
              (x) => x.nodeId === "n1" && x.status === "running" && x.attempt === attempt,
            );
            return s && modelCalls(pool.model, "fs") >= attempt ? s : null;
          },
          120_000,
          `attempt ${attempt} in its model call`,
        );
        const holder = workerOf(workers.filter(alive), step.leaseOwner)!;
        expect(holder, `attempt ${attempt} held by a live worker of this file`).toBeDefined();
        holder.child.kill("SIGSTOP");
        frozen.push(holder);
        await waitFor(
          async () => {
            const s = (await stepsNow(runId)).find((x) => x.nodeId === "n1");
            return s && (s.attempt > attempt || s.status !== "running");
          },
          120_000,
          `attempt ${attempt} taken over`,
        );
        holder.child.kill("SIGCONT"); // alive again: its late commit is refused, and it keeps beating
        console.info(
          `false stall ${attempt}: pid ${holder.child.pid} frozen until the takeover, +${Date.now() - t0} ms`,
        );
      }
      const { run, steps, events } = await waitTerminal(runId, 120_000);
      console.info(`false stalls: run ${run.status} after 3 takeovers, ${Date.now() - t0} ms`);
      expect(run.status, run.reason ?? "").toBe("succeeded");
      const n1 = steps.filter((s) => s.nodeId === "n1");
      expect(n1).toHaveLength(1);
      expect(n1[0]).toMatchObject({ status: "succeeded", attempt: 4 });
      expect(JSON.stringify(n1[0]?.output)).toContain("fourth attempt answer");
      expect(modelCalls(pool.model, "fs")).toBe(4);
      expect(
        events.filter((e) => e.type === "step_finished" && (e.payload as { nodeId?: string }).nodeId === "n1"),
      ).toHaveLength(1);
      expect(events.filter((e) => e.type === "run_finished")).toHaveLength(1);
      expect(JSON.stringify(events.map((e) => e.payload))).not.toContain("FROZEN worker answer");
      expectContiguousSeq(events);
      expect(frozen.every(alive)).toBe(true);
      // the run's planner state records the verdicts: the frozen workers beat again after each takeover
      const state = (await db().run.findUniqueOrThrow({ where: { id: runId } })).state as {
        nodes: Record<string, { interruptions?: { verdict: string }[] }>;
      };
      const verdicts = state.nodes.n1?.interruptions?.map((i) => i.verdict) ?? [];
      expect(verdicts).toHaveLength(3);
      expect(verdicts.slice(0, 2)).toEqual(["alive", "alive"]);
      expect(verdicts[2]).not.toBe("crashed"); // judged alive, or still pending: nobody had to wait for it
    },
  );
});
