import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { workflowSchema, type Field } from "@/lib/workflow/schema";
import { checkInputs, parseCsvRows, parseJsonlRows, type RowDraft } from "./import";

/** Body of "create a dataset". */
export const datasetInputSchema = z.object({
  name: z.string().trim().min(1, "Give the dataset a name").max(100),
  description: z.string().trim().max(1000).default(""),
  workflowId: z.string().trim().min(1).max(100).optional(),
});
export type DatasetInput = z.input<typeof datasetInputSchema>;

/** A dataset as lists show it: its current version and how many rows that version has. */
export interface DatasetSummary {
  id: string;
  name: string;
  description: string;
  workflowId: string | null;
  workflowName: string | null;
  version: number;
  rowCount: number;
  updatedAt: Date;
}

/** One row of a dataset version. */
export interface DatasetRowView {
  id: string;
  ordinal: number;
  inputs: Record<string, unknown>;
  reference: unknown;
  tags: string[];
  sourceRunId: string | null;
}

/** The rows of `version`: added at or before it and not removed by then, in their order. */
export const rowsOfVersion = (datasetId: string, version: number) => ({
  datasetId,
  addedIn: { lte: version },
  OR: [{ removedIn: null }, { removedIn: { gt: version } }],
});

const rowView = (r: {
  id: string;
  ordinal: number;
  inputs: unknown;
  reference: unknown;
  tags: string[];
  sourceRunId: string | null;
}): DatasetRowView => ({
  id: r.id,
  ordinal: r.ordinal,
  inputs: (r.inputs ?? {}) as Record<string, unknown>,
  reference: r.reference ?? null,
  tags: r.tags,
  sourceRunId: r.sourceRunId,
});

/** The input fields of the owner's workflow (its draft's); 404 when it is not theirs. */
export async function workflowFields(workspaceId: string, workflowId: string): Promise<Field[]> {
  const wf = await db().workflow.findFirst({ where: { id: workflowId, workspaceId }, select: { draft: true } });
  if (!wf) throw notFound("Workflow not found");
  return workflowSchema.safeParse(wf.draft).data?.inputs ?? [];
}

/** Creates an empty dataset (version 0); 409 when the owner has one of that name. */
export async function createDataset(workspaceId: string, input: DatasetInput): Promise<{ id: string }> {
  const data = datasetInputSchema.parse(input);
  if (data.workflowId) await workflowFields(workspaceId, data.workflowId);
  const exists = await db().dataset.findFirst({ where: { workspaceId, name: data.name }, select: { id: true } });
  if (exists) throw new AppError("conflict", `You have a dataset named "${data.name}" already.`);
  return db().dataset.create({
    data: { workspaceId, name: data.name, description: data.description, workflowId: data.workflowId ?? null },
    select: { id: true },
  });
}

/** The owner's datasets by name only (the run page's "add to dataset"), newest change first. */
export async function datasetNames(workspaceId: string): Promise<{ id: string; name: string }[]> {
  return db().dataset.findMany({
    where: { workspaceId },
    orderBy: { updatedAt: "desc" },
    select: { id: true, name: true },
    take: 200,
  });
}

/** The owner's datasets, newest change first. */
export async function listDatasets(workspaceId: string): Promise<DatasetSummary[]> {
  const rows = await db().dataset.findMany({ where: { workspaceId }, orderBy: { updatedAt: "desc" } });
  const names = await workflowNames(
    workspaceId,
    rows.map((r) => r.workflowId),
  );
  return Promise.all(
    rows.map(async (d) => ({
      id: d.id,
      name: d.name,
      description: d.description,
      workflowId: d.workflowId,
      workflowName: d.workflowId ? (names.get(d.workflowId) ?? null) : null,
      version: d.version,
      updatedAt: d.updatedAt,
      rowCount: await db().datasetRow.count({ where: rowsOfVersion(d.id, d.version) }),
    })),
  );
}

async function workflowNames(workspaceId: string, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (!wanted.length) return new Map();
  const rows = await db().workflow.findMany({
    where: { workspaceId, id: { in: wanted } },
    select: { id: true, name: true },
  });
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** One of the owner's datasets with the rows of its current version (or `version`); 404 for anyone else's. */
export async function getDataset(
  workspaceId: string,
  id: string,
  version?: number,
): Promise<DatasetSummary & { rows: DatasetRowView[] }> {
  const d = await db().dataset.findFirst({ where: { id, workspaceId } });
  if (!d) throw notFound("Dataset not found");
  const at = version ?? d.version;
  const rows = await db().datasetRow.findMany({ where: rowsOfVersion(d.id, at), orderBy: { ordinal: "asc" } });
  const names = await workflowNames(workspaceId, [d.workflowId]);
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    workflowId: d.workflowId,
    workflowName: d.workflowId ? (names.get(d.workflowId) ?? null) : null,
    version: at,
    rowCount: rows.length,
    updatedAt: d.updatedAt,
    rows: rows.map(rowView),
  };
}

/**
 * Adds rows as the dataset's next version, all or none (one transaction; the dataset's row lock
 * orders concurrent changes). Answers the new version.
 */
export async function addRows(
  workspaceId: string,
  datasetId: string,
  drafts: readonly RowDraft[],
  sourceRunId?: string,
): Promise<number> {
  if (!drafts.length) throw new AppError("bad_request", "No rows to add.");
  return db().$transaction(async (tx) => {
    const owned = await tx.dataset.updateMany({
      where: { id: datasetId, workspaceId },
      data: { version: { increment: 1 } },
    });
    if (!owned.count) throw notFound("Dataset not found");
    const { version } = await tx.dataset.findUniqueOrThrow({ where: { id: datasetId }, select: { version: true } });
    const last = await tx.datasetRow.aggregate({ where: { datasetId }, _max: { ordinal: true } });
    const first = (last._max.ordinal ?? 0) + 1;
    await tx.datasetRow.createMany({
      data: drafts.map((r, i) => ({
        datasetId,
        ordinal: first + i,
        inputs: r.inputs as Prisma.InputJsonValue,
        tags: r.tags,
        addedIn: version,
        ...(r.reference !== undefined && r.reference !== null
          ? { reference: r.reference as Prisma.InputJsonValue }
          : {}),
        ...(sourceRunId ? { sourceRunId } : {}),
      })),
    });
    return version;
  });
}

/** The fields a dataset's rows are checked against: its workflow's, or none (any inputs). */
async function datasetFields(workspaceId: string, datasetId: string): Promise<Field[] | undefined> {
  const d = await db().dataset.findFirst({ where: { id: datasetId, workspaceId }, select: { workflowId: true } });
  if (!d) throw notFound("Dataset not found");
  return d.workflowId ? await workflowFields(workspaceId, d.workflowId).catch(() => undefined) : undefined;
}

/**
 * Imports a CSV or JSONL file as the dataset's next version. Every bad row is reported (400 with
 * `details.errors`: row, line, message) and then nothing is stored.
 */
export async function importRows(
  workspaceId: string,
  datasetId: string,
  format: "csv" | "jsonl",
  text: string,
): Promise<{ version: number; added: number }> {
  const fields = await datasetFields(workspaceId, datasetId);
  const parsed = format === "csv" ? parseCsvRows(text, fields) : parseJsonlRows(text, fields);
  if (!parsed.ok) {
    const n = parsed.errorCount;
    throw new AppError("bad_request", `${n} ${n === 1 ? "row is" : "rows are"} not valid; nothing was imported.`, {
      errors: parsed.errors,
      errorCount: n,
    });
  }
  return { version: await addRows(workspaceId, datasetId, parsed.rows), added: parsed.rows.length };
}

/** Adds one of the owner's runs as a row: its inputs, its outputs as the reference (checked against the dataset's workflow's fields). */
export async function addRunToDataset(
  workspaceId: string,
  datasetId: string,
  runId: string,
): Promise<{ version: number }> {
  const run = await db().run.findFirst({ where: { id: runId, workspaceId }, select: { inputs: true, outputs: true } });
  if (!run) throw notFound("Run not found");
  const checked = checkInputs(
    (run.inputs ?? {}) as Record<string, unknown>,
    await datasetFields(workspaceId, datasetId),
  );
  if ("problems" in checked)
    throw new AppError(
      "bad_request",
      `The run's inputs do not fit this dataset's workflow: ${checked.problems.join("; ")}`,
    );
  const reference = run.outputs ?? undefined;
  return {
    version: await addRows(workspaceId, datasetId, [{ inputs: checked.inputs, reference, tags: ["from-run"] }], runId),
  };
}

/** Removes a row from the next version (earlier versions keep it). */
export async function removeRow(workspaceId: string, datasetId: string, rowId: string): Promise<{ version: number }> {
  return db().$transaction(async (tx) => {
    const d = await tx.dataset.findFirst({ where: { id: datasetId, workspaceId }, select: { version: true } });
    if (!d) throw notFound("Dataset not found");
    const next = d.version + 1;
    const removed = await tx.datasetRow.updateMany({
      where: { id: rowId, ...rowsOfVersion(datasetId, d.version) },
      data: { removedIn: next },
    });
    if (!removed.count) throw notFound("Row not found");
    await tx.dataset.update({ where: { id: datasetId }, data: { version: next } });
    return { version: next };
  });
}

/** Deletes one of the owner's datasets with its rows and experiments. */
export async function deleteDataset(workspaceId: string, id: string): Promise<boolean> {
  return (await db().dataset.deleteMany({ where: { id, workspaceId } })).count > 0;
}

/** A saved workflow version an experiment may run. */
export interface VersionOption {
  workflowId: string;
  workflowName: string;
  version: number;
  message: string;
}

/** The versions an experiment on a dataset may run: its workflow's, else the five newest of each of the owner's workflows. */
export async function experimentVersionOptions(
  workspaceId: string,
  workflowId: string | null,
): Promise<VersionOption[]> {
  const rows = await db().workflowVersion.findMany({
    where: { workflow: { workspaceId, ...(workflowId ? { id: workflowId } : {}) } },
    orderBy: [{ workflowId: "asc" }, { version: "asc" }],
    select: { workflowId: true, version: true, message: true, workflow: { select: { name: true } } },
    take: 500,
  });
  const newest = workflowId
    ? rows
    : rows.filter((r) => rows.filter((x) => x.workflowId === r.workflowId && x.version > r.version).length < 5);
  return newest.map((r) => ({
    workflowId: r.workflowId,
    workflowName: r.workflow.name,
    version: r.version,
    message: r.message,
  }));
}
