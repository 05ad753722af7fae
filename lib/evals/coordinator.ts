import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { getSettings } from "@/lib/db/settings";
import { isTerminalRunStatus } from "@/lib/engine/events";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createLogger } from "@/lib/logger";
import { ownerModelResolver, type ModelResolver } from "@/lib/providers/resolver";
import { estimateCost } from "@/lib/run-views/cost";
import { usageByModel } from "@/lib/run-views/dashboard";
import { cancelRun, startRun } from "@/lib/runs/service";
import { evaluatorListSchema, type EvaluatorResult, type EvaluatorSpec } from "./evaluator-spec";
import { combineResults, evaluateDeterministic, type CellFacts } from "./evaluators";
import { storedVariantSchema } from "./experiments";
import { judgeCell } from "./judge";

const log = createLogger({ component: "experiment" });

/** How often the loop looks at its runs (default). */
export const EXPERIMENT_POLL_MS = 300;

type Experiment = {
  id: string;
  workspaceId: string;
  name: string;
  concurrency: number;
  cancelRequested: boolean;
  variants: z.infer<typeof storedVariantSchema>[];
  evaluators: EvaluatorSpec[];
};
type Cell = { id: string; rowId: string; variant: number; status: string; runId: string | null };

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Drives one experiment to its end: keeps at most `concurrency` of its runs going (each a normal run
 * started through startRun, trigger `experiment`: not counted by the run-start limit, queued behind
 * interactive runs), scores each run as it ends, and ends the experiment `succeeded` — or
 * `cancelled` once a cancel was asked and the runs going were cancelled. Everything it knows is in
 * PostgreSQL, so a job delivered again (a worker died) picks up where the last one stopped: a cell's
 * run is started with the idempotency key `experiment:<cell>`, so starting it twice answers the same run.
 * Returns "stopped" when `signal` aborts (the worker is shutting down).
 */
export async function driveExperiment(
  id: string,
  opts: { signal?: AbortSignal; pollMs?: number; resolver?: (workspaceId: string) => ModelResolver } = {},
): Promise<"done" | "stopped"> {
  const resolverFor = opts.resolver ?? ownerModelResolver;
  let resolve: ModelResolver | undefined;
  while (!opts.signal?.aborted) {
    const row = await db().experiment.findUnique({ where: { id } });
    if (!row || (row.status !== "queued" && row.status !== "running")) return "done";
    if (row.status === "queued")
      await db().experiment.update({ where: { id }, data: { status: "running", startedAt: new Date() } });
    const exp: Experiment = {
      ...row,
      variants: z.array(storedVariantSchema).parse(row.variants),
      evaluators: evaluatorListSchema.parse(row.evaluators),
    };
    resolve ??= resolverFor(exp.workspaceId);
    const cells = await db().experimentCell.findMany({
      where: { experimentId: id, status: { in: ["pending", "running"] } },
      orderBy: [{ ordinal: "asc" }, { variant: "asc" }],
      select: { id: true, rowId: true, variant: true, status: true, runId: true },
    });
    const going = cells.filter((c) => c.status === "running");
    const ended = await settleEnded(exp, going, resolve, opts.signal);
    const stillGoing = going.length - ended;
    if (exp.cancelRequested) {
      await db().experimentCell.updateMany({
        where: { experimentId: id, status: "pending" },
        data: { status: "cancelled" },
      });
      await cancelGoing(exp, going);
    } else {
      const pending = cells.filter((c) => c.status === "pending").slice(0, Math.max(0, exp.concurrency - stillGoing));
      for (const cell of pending) await startCell(exp, cell);
    }
    const left = await db().experimentCell.count({
      where: { experimentId: id, status: { in: ["pending", "running"] } },
    });
    if (left === 0) {
      await db().experiment.updateMany({
        where: { id, status: "running" },
        data: { status: exp.cancelRequested ? "cancelled" : "succeeded", finishedAt: new Date() },
      });
      log.info("experiment ended", { id, cancelled: exp.cancelRequested });
      return "done";
    }
    await sleep(opts.pollMs ?? EXPERIMENT_POLL_MS, opts.signal);
  }
  return "stopped";
}

/** Starts a pending cell's run and marks the cell running; a start the service refuses scores the cell as failed. */
async function startCell(exp: Experiment, cell: Cell): Promise<void> {
  const variant = exp.variants[cell.variant];
  const row = await db().datasetRow.findUnique({ where: { id: cell.rowId }, select: { inputs: true } });
  if (!variant || !row) return refuse(cell, "The dataset row or workflow version is gone.");
  let runId: string;
  try {
    const started = await startRun(
      exp.workspaceId,
      variant.workflowId,
      { inputs: (row.inputs ?? {}) as Record<string, unknown>, version: variant.version },
      {
        trigger: "experiment",
        label: exp.name,
        idempotencyKey: `experiment:${cell.id}`,
      },
    );
    runId = started.run.id;
  } catch (err) {
    if (err instanceof AppError && err.code !== "unavailable" && err.code !== "internal")
      return refuse(cell, err.message);
    throw err;
  }
  const marked = await db().experimentCell.updateMany({
    where: { id: cell.id, status: "pending" },
    data: { status: "running", runId },
  });
  // cancelled between the read and the start: the run just started is cancelled too
  if (!marked.count) await cancelRun(exp.workspaceId, runId, "The experiment was cancelled").catch(() => undefined);
}

async function refuse(cell: Cell, message: string): Promise<void> {
  await db().experimentCell.updateMany({
    where: { id: cell.id, status: "pending" },
    data: { status: "scored", runStatus: "not_started", score: 0, passed: false, error: message },
  });
}

/** Cancels the runs of the cells still going (each once: a run already asked to cancel is left alone). */
async function cancelGoing(exp: Experiment, going: Cell[]): Promise<void> {
  const ids = going.map((c) => c.runId).filter((r): r is string => !!r);
  if (!ids.length) return;
  const runs = await db().run.findMany({
    where: { id: { in: ids }, cancelRequested: false },
    select: { id: true, status: true },
  });
  for (const r of runs)
    if (!isTerminalRunStatus(r.status))
      await cancelRun(exp.workspaceId, r.id, "The experiment was cancelled").catch((err: unknown) =>
        log.warn("cancel failed", { runId: r.id, err }),
      );
}

/** Scores the cells whose runs ended (a cancelled run's cell is cancelled); answers how many ended. */
async function settleEnded(
  exp: Experiment,
  going: Cell[],
  resolve: ModelResolver,
  signal?: AbortSignal,
): Promise<number> {
  const ids = going.map((c) => c.runId).filter((r): r is string => !!r);
  if (!ids.length) return 0;
  const runs = await db().run.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      status: true,
      inputs: true,
      outputs: true,
      startedAt: true,
      finishedAt: true,
      promptTokens: true,
      completionTokens: true,
    },
  });
  const done = runs.filter((r) => isTerminalRunStatus(r.status));
  if (!done.length) return 0;
  const [usage, settings] = await Promise.all([usageByModel(done.map((r) => r.id)), getSettings(exp.workspaceId)]);
  const rowIds = going.filter((c) => done.some((r) => r.id === c.runId)).map((c) => c.rowId);
  const references = new Map(
    (await db().datasetRow.findMany({ where: { id: { in: rowIds } }, select: { id: true, reference: true } })).map(
      (r) => [r.id, r.reference],
    ),
  );
  await Promise.all(
    done.map(async (run) => {
      const cell = going.find((c) => c.runId === run.id)!;
      if (run.status === "cancelled") {
        await db().experimentCell.updateMany({
          where: { id: cell.id, status: "running" },
          data: { status: "cancelled", runStatus: run.status },
        });
        return;
      }
      const facts: CellFacts = {
        inputs: run.inputs,
        outputs: run.outputs,
        reference: references.get(cell.rowId) ?? null,
        runStatus: run.status,
        latencyMs: run.startedAt && run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null,
        tokens: run.promptTokens + run.completionTokens,
        costUsd: estimateCost(settings.prices, usage.get(run.id) ?? []),
      };
      const results: EvaluatorResult[] = await Promise.all(
        exp.evaluators.map((spec) =>
          spec.kind === "judge" ? judgeCell(spec, facts, resolve, signal) : evaluateDeterministic(spec, facts),
        ),
      );
      const { score, passed } = combineResults(exp.evaluators, results, run.status);
      await db().experimentCell.updateMany({
        where: { id: cell.id, status: "running" },
        data: {
          status: "scored",
          runStatus: run.status,
          results: results as unknown as Prisma.InputJsonValue,
          score,
          passed,
          tokens: facts.tokens,
          costUsd: facts.costUsd,
          latencyMs: facts.latencyMs,
        },
      });
    }),
  );
  return done.length;
}
