import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startRun } from "@/lib/runs/service";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { createTestWorkflow } from "@/test/fixtures";
import { expectContiguousSeq, modelCalls, stepsNow, waitFor, waitTerminal, workerOf } from "@/test/helpers/worker";
import { useWorkerPool } from "@/test/helpers/worker-pool";

/**
 * A map node survives a killed worker (docs/reliability.md, M1): 20 items, 5 at a time, each item's
 * model call answered by its own scripted rule after 1.5 s. Once about 8 items are committed the
 * worker holding the run is SIGKILLed; the other worker takes the run over. Every item committed
 * before the kill was asked of the model exactly once (the scripted server's request log, one rule
 * per item), the run succeeds and its results are in item order.
 */
const ITEMS = Array.from({ length: 20 }, (_, i) => `q${String(i + 1).padStart(2, "0")}`);

const pool = useWorkerPool({
  fixtures: [
    {
      rules: ITEMS.map((q) => ({
        id: `map-${q}`,
        match: { system: "[[map-fault]]", lastUser: `Research ${q}.` },
        reply: { text: `answer ${q}`, delayMs: 1_500 },
      })),
    },
  ],
  size: 2,
});

const doc: WorkflowInput = {
  name: "Map fault",
  inputs: [{ key: "questions", type: "json" }],
  outputs: [{ key: "answers" }],
  agents: [
    {
      key: "r",
      name: "Researcher",
      instructions: "[[map-fault]] Research one question.",
      model: { model: "scripted-demo" },
    },
  ],
  nodes: [
    { id: "start", type: "start" },
    {
      id: "each",
      type: "map",
      items: "{{inputs.questions}}",
      body: { type: "agent", agent: "r", task: "Research {{item}}." },
      concurrency: 5,
    },
    { id: "end", type: "end", outputs: { answers: "{{nodes.each.output.results}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "each" },
    { id: "e2", source: "each", sourceHandle: "done", target: "end" },
  ],
};

describe.sequential("map with real worker processes", () => {
  it(
    "M1: a worker SIGKILLed after ~8 of 20 items committed — the run finishes, committed items are never asked again, results in item order",
    { timeout: 300_000 },
    async () => {
      const { workflowId } = await createTestWorkflow(pool.workspaceId, doc);
      const runId = (await startRun(pool.workspaceId, workflowId, { inputs: { questions: ITEMS } })).run.id;
      const committed = await waitFor(
        async () => {
          const done = (await stepsNow(runId)).filter((s) => s.nodeId === "each.items" && s.status === "succeeded");
          return done.length >= 8 ? done : null;
        },
        120_000,
        "8 items committed",
      );
      const holder = await waitFor(
        async () => workerOf(pool.live(), (await db().run.findUnique({ where: { id: runId } }))?.leaseOwner),
        30_000,
        "the worker holding the run",
      );
      holder.child.kill("SIGKILL");
      await holder.exited;
      // what the killed worker had committed (the rows and its step log, read after its death)
      const before = (await stepsNow(runId)).filter((s) => s.nodeId === "each.items" && s.status === "succeeded");
      expect(before.length).toBeGreaterThanOrEqual(committed.length);
      expect(before.length).toBeLessThan(ITEMS.length);
      pool.start(); // a spare for a later file; the survivor takes the run over

      const { run, steps, events } = await waitTerminal(runId, 240_000);
      console.info(`M1: ${before.length} of ${ITEMS.length} items committed before the kill`);
      expect(run.status, run.reason ?? "").toBe("succeeded");
      expect(run.outputs).toEqual({ answers: ITEMS.map((q) => `answer ${q}`) });
      const items = steps.filter((s) => s.nodeId === "each.items");
      expect(items.map((s) => s.iteration).toSorted((a, b) => a - b)).toEqual(ITEMS.map((_, i) => i + 1));
      expect(items.every((s) => s.status === "succeeded")).toBe(true);
      for (const s of before)
        expect(modelCalls(pool.model, `map-${ITEMS[s.iteration - 1]}`), `item ${s.iteration}`).toBe(1);
      // items not committed before the kill were asked once more at most (in flight when it died)
      for (const q of ITEMS) expect(modelCalls(pool.model, `map-${q}`)).toBeLessThanOrEqual(2);
      const redone = items.filter((s) => !before.some((b) => b.iteration === s.iteration) && s.attempt > 1);
      expect(redone.length).toBeLessThanOrEqual(5);
      expect(steps.find((s) => s.nodeId === "each")).toMatchObject({ status: "succeeded" });
      expect(events.filter((e) => e.type === "run_finished")).toHaveLength(1);
      expectContiguousSeq(events);
    },
  );
});
