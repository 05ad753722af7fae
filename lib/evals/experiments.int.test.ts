import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createTestWorkflow } from "@/test/fixtures";
import { waitFor } from "@/test/helpers/worker";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { workflowSchema, type WorkflowInput } from "@/lib/workflow/schema";
import { createDataset, importRows } from "./datasets";
import { cancelExperiment, createExperiment } from "./experiments";
import { JUDGE_SCHEMA_NAME } from "./judge";
import { getExperiment } from "./results";

const ROWS = 10;
const square = (i: number) => i * i;

/**
 * Version 1 answers every question right; version 2 only the odd ones (an even one gets n² + 1).
 * The judge gives 5 when the answer equals the reference, else 1 (one regex rule with a backreference).
 * A question "slow" makes version 1 take 1.5 s (for the cancel test).
 */
const rules = [
  ...Array.from({ length: ROWS }, (_, k) => k + 1).flatMap((i) => [
    { id: `v1-${i}`, match: { system: "[[v1]]", lastUser: `Q${i}:` }, reply: { text: String(square(i)) } },
    {
      id: `v2-${i}`,
      match: { system: "[[v2]]", lastUser: `Q${i}:` },
      reply: { text: String(i % 2 ? square(i) : square(i) + 1) },
    },
  ]),
  { id: "slow", match: { system: "[[v1]]", lastUser: "slow" }, reply: { text: "0", delayMs: 1500 } },
  {
    id: "judge-right",
    match: {
      schema: JUDGE_SCHEMA_NAME,
      lastUser: { regex: "Reference answer:\\n(\\d+)\\n\\nAnswer to grade:\\n\\1$" },
    },
    reply: { json: { reasoning: "Equals the reference.", score: 5 } },
  },
  {
    id: "judge-wrong",
    match: { schema: JUDGE_SCHEMA_NAME },
    reply: { json: { reasoning: "Differs from the reference.", score: 1 } },
  },
];

// the worker's start limit is far below the experiment's 20 runs: its runs must not count
const rt = useWorkerRuntime({ fixtures: [{ rules }], workerEnv: { WEFT_RUN_START_LIMIT: "3" } });

const workflow = (tag: string): WorkflowInput => ({
  name: "Squares",
  inputs: [{ key: "question", type: "text", required: true }],
  agents: [{ key: "solver", name: "Solver", instructions: `${tag} Answer with the number only.` }],
  nodes: [
    { id: "start", type: "start" },
    { id: "solve", type: "agent", agent: "solver", task: "{{inputs.question}}" },
    { id: "end", type: "end", outputs: { answer: "{{nodes.solve.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "solve" },
    { id: "e2", source: "solve", sourceHandle: "done", target: "end" },
  ],
});

/** A workflow with version 1 ([[v1]]) and version 2 ([[v2]]). */
async function twoVersions(workspaceId: string): Promise<string> {
  const { workflowId } = await createTestWorkflow(workspaceId, workflow("[[v1]]"));
  await db().workflowVersion.create({
    data: {
      workflowId,
      version: 2,
      document: workflowSchema.parse(workflow("[[v2]]")) as unknown as Prisma.InputJsonValue,
    },
  });
  return workflowId;
}

const evaluators = [
  { kind: "exact", name: "exact", weight: 2 },
  { kind: "numeric", name: "number", tolerance: 0 },
  { kind: "length", name: "short", max: 5 },
  { kind: "judge", name: "judge", rubric: "Is the answer the square asked for?", threshold: 0.5 },
] as const;

const ended = (id: string, ms = 120_000) =>
  waitFor(
    async () => {
      const e = await getExperiment(rt.workspaceId, id);
      return e.status !== "queued" && e.status !== "running" ? e : undefined;
    },
    ms,
    "the experiment's end",
  );

describe("experiments on the real engine", () => {
  it(
    "10 rows × 2 versions: every run scored by the deterministic evaluators and the scripted judge, aggregated, regressions found",
    { timeout: 180_000 },
    async () => {
      const workflowId = await twoVersions(rt.workspaceId);
      const { id: datasetId } = await createDataset(rt.workspaceId, { name: "Squares", workflowId });
      const csv = [
        "question,expected",
        ...Array.from({ length: ROWS }, (_, k) => `Q${k + 1}: what is ${k + 1} squared?,${square(k + 1)}`),
      ].join("\n");
      await importRows(rt.workspaceId, datasetId, "csv", csv);
      const { id, cells } = await createExperiment(rt.workspaceId, {
        datasetId,
        variants: [
          { workflowId, version: 1 },
          { workflowId, version: 2 },
        ],
        evaluators: [...evaluators],
        concurrency: 4,
      });
      expect(cells).toBe(20);
      const exp = await ended(id);
      expect(exp.status).toBe("succeeded");
      expect(exp.progress).toEqual({ total: 20, pending: 0, running: 0, scored: 20, cancelled: 0 });
      for (const [k, row] of exp.rows.entries()) {
        const i = k + 1;
        const [v1, v2] = row.cells;
        expect(v1).toMatchObject({ runStatus: "succeeded", score: 1, passed: true, regression: false });
        expect(v1!.results.find((r) => r.name === "judge")).toMatchObject({
          score: 1,
          passed: true,
          reasoning: "Equals the reference.",
        });
        if (i % 2) expect(v2).toMatchObject({ score: 1, passed: true, regression: false });
        else {
          // exact 0 (weight 2), number 0, short 1, judge 0: (0 + 0 + 1 + 0) / 5
          expect(v2).toMatchObject({ score: 0.2, passed: false, regression: true });
          expect(v2!.results.map((r) => [r.name, r.score])).toEqual([
            ["exact", 0],
            ["number", 0],
            ["short", 1],
            ["judge", 0],
          ]);
        }
      }
      expect(exp.aggregates[0]).toMatchObject({ cells: 10, scored: 10, mean: 1, passRate: 1 });
      // the judges' tokens are the scripted judge's usage, counted apart from the runs' tokens
      const judged = exp.rows.flatMap((r) => r.cells).filter((c) => c!.runStatus === "succeeded");
      expect(judged.every((c) => c!.judgeTokens > 0)).toBe(true);
      for (const [v, a] of exp.aggregates.entries())
        expect(a.judgeTokens).toBe(exp.rows.reduce((n, r) => n + r.cells[v]!.judgeTokens, 0));
      expect(exp.aggregates[0]!.tokens).toBe(exp.rows.reduce((n, r) => n + r.cells[0]!.tokens, 0));
      expect(exp.aggregates[1]).toMatchObject({ cells: 10, scored: 10, passRate: 0.5 });
      expect(exp.aggregates[1]!.mean).toBeCloseTo(0.6, 10);
      expect(exp.aggregates[1]!.low!).toBeLessThan(0.6);
      expect(exp.aggregates[1]!.high!).toBeGreaterThan(0.6);
      expect(exp.regressions).toBe(5);
      // each cell is a normal run of its version, started by the experiment, not counted by the start limit (3 a minute here)
      const runs = await db().run.findMany({
        where: { id: { in: exp.rows.flatMap((r) => r.cells.map((c) => c!.runId!)) } },
        include: { workflowVersion: { select: { version: true } } },
      });
      expect(runs).toHaveLength(20);
      expect(runs.every((r) => r.trigger === "experiment")).toBe(true);
      expect(runs.map((r) => r.workflowVersion.version).sort()).toEqual([...Array(10).fill(1), ...Array(10).fill(2)]);
    },
  );

  it("a cancel mid-way leaves the finished rows scored and the rest cancelled", { timeout: 180_000 }, async () => {
    const workflowId = await twoVersions(rt.workspaceId);
    const { id: datasetId } = await createDataset(rt.workspaceId, { name: "Slow squares", workflowId });
    const csv = [
      "question,expected",
      "Q1: what is 1 squared?,1",
      "Q2: what is 2 squared?,4",
      ...Array.from({ length: 8 }, (_, k) => `slow ${k},0`),
    ].join("\n");
    await importRows(rt.workspaceId, datasetId, "csv", csv);
    const { id } = await createExperiment(rt.workspaceId, {
      datasetId,
      variants: [{ workflowId, version: 1 }],
      evaluators: [{ kind: "exact", name: "exact" }],
      concurrency: 2,
    });
    await waitFor(
      async () => (await getExperiment(rt.workspaceId, id)).progress.scored >= 2 || undefined,
      60_000,
      "two rows scored",
    );
    await waitFor(
      async () => (await getExperiment(rt.workspaceId, id)).progress.running >= 1 || undefined,
      30_000,
      "a slow row going",
    );
    await cancelExperiment(rt.workspaceId, id);
    const exp = await ended(id, 60_000);
    expect(exp.status).toBe("cancelled");
    const cells = exp.rows.map((r) => r.cells[0]!);
    const scored = cells.filter((c) => c.status === "scored");
    expect(scored.length).toBeGreaterThanOrEqual(2);
    expect(scored.length).toBeLessThan(10);
    expect(cells.slice(0, 2)).toMatchObject([
      { status: "scored", score: 1, passed: true },
      { status: "scored", score: 1, passed: true },
    ]);
    expect(cells.every((c) => c.status === "scored" || c.status === "cancelled")).toBe(true);
    expect(exp.progress.cancelled).toBe(10 - scored.length);
    // no run of the experiment is left going; a cancelled cell's run (if it had one) was cancelled
    const runIds = cells.map((c) => c.runId).filter((r): r is string => !!r);
    await waitFor(
      async () => {
        const runs = await db().run.findMany({ where: { id: { in: runIds } }, select: { status: true } });
        return runs.every((r) => ["succeeded", "cancelled"].includes(r.status)) || undefined;
      },
      30_000,
      "every run ended",
    );
    for (const c of cells.filter((x) => x.status === "cancelled" && x.runId)) {
      expect((await db().run.findUniqueOrThrow({ where: { id: c.runId! } })).status).toBe("cancelled");
    }
  });
});
