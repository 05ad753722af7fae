import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { hasLiveRunJob } from "@/lib/queue";
import { startRun } from "@/lib/runs/service";
import { createTestWorkflow } from "@/test/fixtures";
import {
  alive,
  chainWorkflow,
  expectContiguousSeq,
  modelCalls,
  stepsNow,
  TERMINAL,
  waitFor,
  waitTerminal,
  workerOf,
} from "@/test/helpers/worker";
import { useWorkerPool } from "@/test/helpers/worker-pool";

/**
 * D3 (docs/reliability.md): a step that keeps killing its worker ends `failed` with the reason
 * after the attempt cap (the driver's maxAttempts, 3), the run shows it, and nothing retries it again.
 *
 * Every time the step is running on a worker and its model call is in flight, that worker is
 * SIGKILLed — as if the step itself crashed the process. Recovery per crash is BullMQ's stall
 * detection with the worker's settings (lib/queue/settings.ts: lock 10 s + stalled check every
 * 5 s, so ≈ 15 s; they are not configurable by env). To keep worker start-up (5 s quiet, 30 s on a
 * loaded machine) out of that path, the file starts three workers and spawns a replacement after
 * each kill without waiting for it: a live worker is always there to pick the stalled run up.
 * Only crashes count (workers/liveness.ts): at the third takeover the crash would decide the run, so
 * the taker waits until the killed worker has been silent for 30 s (DEAD_AFTER_MS) before failing it.
 * Expected wall time ≈ 3 × 15 s + ≈ 20 s for that verdict, plus the start of the first workers.
 */
// the model never answers within the test: every attempt is still in its model call when killed
const pool = useWorkerPool({
  fixtures: [
    { rules: [{ id: "d3", match: { system: "[[d3]]" }, reply: { text: "never delivered", delayMs: 600_000 } }] },
  ],
  size: 3,
});
const { workers, start } = pool;

describe("D3: crash loop", () => {
  it(
    "a step that kills its worker every time ends failed after the attempt cap, with the reason; no endless retry",
    { timeout: 300_000 },
    async () => {
      const { workflowId } = await createTestWorkflow(pool.workspaceId, chainWorkflow("D3", ["d3"]));
      const runId = (await startRun(pool.workspaceId, workflowId, { inputs: {} })).run.id;
      const t0 = Date.now();
      const killedAttempts: number[] = [];
      const deadline = Date.now() + 150_000;
      for (;;) {
        const r = await db().run.findUniqueOrThrow({ where: { id: runId } });
        if (TERMINAL.includes(r.status)) break;
        if (Date.now() > deadline) {
          const tail = workers.flatMap((w) =>
            w.logs
              .filter((l) => l.includes(runId) || /"level":"(warn|error)"/.test(l))
              .slice(-12)
              .map((l) => `[${w.child.pid}] ${l.slice(0, 600)}`),
          );
          expect.fail(
            `run still ${r.status} at the deadline after crashes ${killedAttempts.join(", ")}; worker logs:\n${tail.join("\n")}`,
          );
        }
        expect(killedAttempts.length, "more crashes than the cap allows").toBeLessThanOrEqual(3);
        const step = (await stepsNow(runId)).find((s) => s.nodeId === "n1" && s.status === "running");
        const victim =
          step && !killedAttempts.includes(step.attempt) ? workerOf(workers.filter(alive), step.leaseOwner) : undefined;
        // the attempt's model call has reached the server: the step is mid-flight
        if (victim && step && modelCalls(pool.model, "d3") >= step.attempt) {
          victim.child.kill("SIGKILL");
          killedAttempts.push(step.attempt);
          console.info(`D3: attempt ${step.attempt} crashed its worker at +${Date.now() - t0} ms`);
          start();
        }
        await new Promise((res) => setTimeout(res, 100));
      }
      const { run, steps, events } = await waitTerminal(runId);
      console.info(`D3: run ${run.status} after ${killedAttempts.length} crashes, ${Date.now() - t0} ms`);
      expect(run.status).toBe("failed");
      expect(run.reason ?? "").toMatch(/"n1"/);
      expect(run.reason ?? "").toMatch(/interrupted 3 times; giving up after 3 attempts/);
      expect(killedAttempts).toEqual([1, 2, 3]);
      expect(modelCalls(pool.model, "d3")).toBe(3);
      const n1 = steps.filter((s) => s.nodeId === "n1");
      expect(n1).toHaveLength(1);
      expect(n1[0]?.attempt).toBe(3);
      expect(n1[0]?.status).not.toBe("running");
      expect(n1[0]?.status).not.toBe("succeeded");
      expect(steps.some((s) => s.nodeId === "end")).toBe(false);
      const finished = events.filter((e) => e.type === "run_finished");
      expect(finished).toHaveLength(1);
      expect(JSON.stringify(finished[0]?.payload)).toContain("giving up");
      // each interruption was judged a crash: its worker never beat again
      const state = run.state as {
        nodes: Record<string, { interruptions?: { verdict: string; owner: string | null }[] }>;
      };
      expect(state.nodes.n1?.interruptions?.map((i) => i.verdict)).toEqual(["crashed", "crashed", "crashed"]);
      expect(state.nodes.n1?.interruptions?.every((i) => !alive(workerOf(workers, i.owner)!))).toBe(true);
      expectContiguousSeq(events);
      // no endless retry: the run's job is gone from the queue, and the reconciler skips terminal runs
      await waitFor(
        async () => !(await hasLiveRunJob(runId).catch(() => true)),
        120_000,
        "the run's job leaves the queue",
      ); // a Redis timeout on a loaded machine: ask again
      expect(modelCalls(pool.model, "d3")).toBe(3);
      expect((await db().run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("failed");
    },
  );
});
