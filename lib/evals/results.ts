import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import type { CellView, ExperimentSummary, ExperimentView, ResultRowView } from "./dto";
import { evaluatorListSchema, type EvaluatorResult } from "./evaluator-spec";
import { storedVariantSchema } from "./experiments";
import { aggregate, isRegression } from "./stats";

const variantsSchema = z.array(storedVariantSchema);

type CellRow = Awaited<ReturnType<typeof readCells>>[number];
const readCells = (experimentId: string) =>
  db().experimentCell.findMany({ where: { experimentId }, orderBy: [{ ordinal: "asc" }, { variant: "asc" }] });

function progressOf(cells: readonly { status: string }[]): ExperimentView["progress"] {
  const count = (s: string) => cells.filter((c) => c.status === s).length;
  return {
    total: cells.length,
    pending: count("pending"),
    running: count("running"),
    scored: count("scored"),
    cancelled: count("cancelled"),
  };
}

/** What the cell's judges spent (each judge result carries its tokens). */
const judgeTokensOf = (c: CellRow): number =>
  ((c.results ?? []) as unknown as EvaluatorResult[]).reduce((a, r) => a + (r.tokens ?? 0), 0);

const cellView = (c: CellRow, regression: boolean): CellView => ({
  id: c.id,
  variant: c.variant,
  status: c.status,
  runId: c.runId,
  runStatus: c.runStatus,
  score: c.score,
  passed: c.passed,
  tokens: c.tokens,
  judgeTokens: judgeTokensOf(c),
  costUsd: c.costUsd,
  latencyMs: c.latencyMs,
  error: c.error,
  results: (c.results ?? []) as unknown as EvaluatorResult[],
  regression,
});

/** One of the owner's experiments with every row's cells, the aggregates per variant and the regressions; 404 for anyone else's. */
export async function getExperiment(workspaceId: string, id: string): Promise<ExperimentView> {
  const exp = await db().experiment.findFirst({
    where: { id, workspaceId },
    include: { dataset: { select: { name: true } } },
  });
  if (!exp) throw notFound("Experiment not found");
  const variants = variantsSchema.parse(exp.variants);
  const evaluators = evaluatorListSchema.safeParse(exp.evaluators).data ?? [];
  const cells = await readCells(id);
  const rowIds = [...new Set(cells.map((c) => c.rowId))];
  const rowData = new Map((await db().datasetRow.findMany({ where: { id: { in: rowIds } } })).map((r) => [r.id, r]));
  const byRow = new Map<string, CellRow[]>();
  for (const c of cells) byRow.set(c.rowId, [...(byRow.get(c.rowId) ?? []), c]);
  let regressions = 0;
  const rows: ResultRowView[] = rowIds.map((rowId) => {
    const own = byRow.get(rowId) ?? [];
    const baseline = own.find((c) => c.variant === 0);
    const r = rowData.get(rowId);
    return {
      rowId,
      ordinal: own[0]?.ordinal ?? 0,
      inputs: (r?.inputs ?? {}) as Record<string, unknown>,
      reference: r?.reference ?? null,
      tags: r?.tags ?? [],
      cells: variants.map((_, v) => {
        const c = own.find((x) => x.variant === v);
        if (!c) return null;
        const regression = v > 0 && isRegression(c, baseline);
        if (regression) regressions++;
        return cellView(c, regression);
      }),
    };
  });
  return {
    id: exp.id,
    name: exp.name,
    status: exp.status,
    cancelRequested: exp.cancelRequested,
    error: exp.error,
    datasetId: exp.datasetId,
    datasetName: exp.dataset.name,
    datasetVersion: exp.datasetVersion,
    concurrency: exp.concurrency,
    createdAt: exp.createdAt.toISOString(),
    startedAt: exp.startedAt?.toISOString() ?? null,
    finishedAt: exp.finishedAt?.toISOString() ?? null,
    variants,
    evaluators: evaluators.map((e) => ({ name: e.name, kind: e.kind, weight: e.weight, threshold: e.threshold })),
    progress: progressOf(cells),
    aggregates: variants.map((_, v) =>
      aggregate(cells.filter((c) => c.variant === v).map((c) => ({ ...c, judgeTokens: judgeTokensOf(c) }))),
    ),
    regressions,
    rows,
  };
}

/** The owner's experiments (of one dataset, if given), newest first. */
export async function listExperiments(workspaceId: string, datasetId?: string): Promise<ExperimentSummary[]> {
  const rows = await db().experiment.findMany({
    where: { workspaceId, ...(datasetId ? { datasetId } : {}) },
    orderBy: { createdAt: "desc" },
    take: 100,
    include: { dataset: { select: { name: true } } },
  });
  const counts = await db().experimentCell.groupBy({
    by: ["experimentId", "status"],
    where: { experimentId: { in: rows.map((r) => r.id) } },
    _count: { _all: true },
  });
  return rows.map((e) => {
    const mine = counts
      .filter((c) => c.experimentId === e.id)
      .flatMap((c) => Array.from({ length: c._count._all }, () => ({ status: c.status })));
    return {
      id: e.id,
      name: e.name,
      status: e.status,
      datasetName: e.dataset.name,
      createdAt: e.createdAt.toISOString(),
      variants: (variantsSchema.safeParse(e.variants).data ?? []).map((v) => v.label),
      progress: progressOf(mine),
    };
  });
}
