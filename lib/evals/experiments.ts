import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createLogger } from "@/lib/logger";
import { enqueueExperiment } from "@/lib/queue";
import { rowsOfVersion } from "./datasets";
import { evaluatorListSchema } from "./evaluator-spec";

const log = createLogger({ component: "experiments" });

/** Runs of one experiment going at once: at most this many (the worker drives 20 runs at once by default). */
export const EXPERIMENT_CONCURRENCY_MAX = 8;
/** Cells (rows × variants) one experiment may have. */
export const EXPERIMENT_CELLS_MAX = 2_000;
/** Experiments one user may have queued or running at once. */
export const EXPERIMENTS_ACTIVE_MAX = 3;

/** Body of "start an experiment". */
export const experimentInputSchema = z.object({
  datasetId: z.string().trim().min(1).max(100),
  name: z.string().trim().max(100).optional(),
  variants: z
    .array(z.object({ workflowId: z.string().trim().min(1).max(100), version: z.number().int().positive() }))
    .min(1)
    .max(5),
  evaluators: evaluatorListSchema,
  concurrency: z.number().int().min(1).max(EXPERIMENT_CONCURRENCY_MAX).default(4),
});
export type ExperimentInput = z.input<typeof experimentInputSchema>;

/** A variant as stored on the experiment. */
export const storedVariantSchema = z.object({ workflowId: z.string(), version: z.number().int(), label: z.string() });

async function variantsOf(workspaceId: string, wanted: { workflowId: string; version: number }[]) {
  const seen = new Set<string>();
  const out: z.infer<typeof storedVariantSchema>[] = [];
  for (const v of wanted) {
    const key = `${v.workflowId}#${v.version}`;
    if (seen.has(key)) throw new AppError("bad_request", "The same workflow version is listed twice.");
    seen.add(key);
    const found = await db().workflowVersion.findFirst({
      where: { version: v.version, workflow: { id: v.workflowId, workspaceId } },
      select: { workflow: { select: { name: true } } },
    });
    if (!found) throw notFound(`Version ${v.version} of workflow ${v.workflowId} not found`);
    out.push({ ...v, label: `${found.workflow.name} v${v.version}` });
  }
  return out;
}

/**
 * Starts an experiment: the dataset's current version × the given saved workflow versions, scored
 * by `evaluators`. Creates the experiment and one pending cell per row and variant, then enqueues
 * its job on the experiments queue (a failed enqueue is left to the worker's sweep). 400 for an
 * empty dataset or too many cells, 404 for a dataset or version that is not the owner's, 409 when
 * the owner has EXPERIMENTS_ACTIVE_MAX experiments going.
 */
export async function createExperiment(
  workspaceId: string,
  input: ExperimentInput,
): Promise<{ id: string; cells: number }> {
  const data = experimentInputSchema.parse(input);
  const dataset = await db().dataset.findFirst({
    where: { id: data.datasetId, workspaceId },
    select: { id: true, name: true, version: true },
  });
  if (!dataset) throw notFound("Dataset not found");
  const variants = await variantsOf(workspaceId, data.variants);
  const rows = await db().datasetRow.findMany({
    where: rowsOfVersion(dataset.id, dataset.version),
    orderBy: { ordinal: "asc" },
    select: { id: true, ordinal: true },
  });
  if (!rows.length) throw new AppError("bad_request", "The dataset has no rows; add some first.");
  const cells = rows.length * variants.length;
  if (cells > EXPERIMENT_CELLS_MAX)
    throw new AppError(
      "bad_request",
      `${rows.length} rows × ${variants.length} versions is ${cells} runs: at most ${EXPERIMENT_CELLS_MAX} per experiment.`,
    );
  const active = await db().experiment.count({ where: { workspaceId, status: { in: ["queued", "running"] } } });
  if (active >= EXPERIMENTS_ACTIVE_MAX)
    throw new AppError("conflict", `You have ${active} experiments going; wait for one to end or cancel it.`);
  const name = data.name || `${dataset.name} · ${variants.map((v) => v.label).join(" vs ")}`.slice(0, 100);
  const id = await db().$transaction(async (tx) => {
    const exp = await tx.experiment.create({
      data: {
        workspaceId,
        datasetId: dataset.id,
        datasetVersion: dataset.version,
        name,
        concurrency: data.concurrency,
        variants: variants as unknown as Prisma.InputJsonValue,
        evaluators: data.evaluators as unknown as Prisma.InputJsonValue,
      },
      select: { id: true },
    });
    await tx.experimentCell.createMany({
      data: rows.flatMap((r) =>
        variants.map((_, variant) => ({ experimentId: exp.id, rowId: r.id, ordinal: r.ordinal, variant })),
      ),
    });
    return exp.id;
  });
  await enqueueExperiment(id).catch((err: unknown) =>
    log.warn("experiment stored but not enqueued; the sweep will dispatch it", { id, err }),
  );
  return { id, cells };
}

/**
 * Cancels one of the owner's experiments: cells not started are cancelled at once; its job cancels
 * the runs going, scores the ones that finished and ends it `cancelled`. Idempotent; an ended
 * experiment is left as it is.
 */
export async function cancelExperiment(workspaceId: string, id: string): Promise<void> {
  const exp = await db().experiment.findFirst({ where: { id, workspaceId }, select: { status: true } });
  if (!exp) throw notFound("Experiment not found");
  if (exp.status !== "queued" && exp.status !== "running") return;
  await db().experiment.update({ where: { id }, data: { cancelRequested: true } });
  await db().experimentCell.updateMany({
    where: { experimentId: id, status: "pending" },
    data: { status: "cancelled" },
  });
  await enqueueExperiment(id).catch((err: unknown) =>
    log.warn("cancel recorded; the experiment's job was not enqueued", { id, err }),
  );
}

/** Deletes one of the owner's experiments that has ended (its runs stay). */
export async function deleteExperiment(workspaceId: string, id: string): Promise<boolean> {
  return (
    (await db().experiment.deleteMany({ where: { id, workspaceId, status: { notIn: ["queued", "running"] } } })).count >
    0
  );
}
