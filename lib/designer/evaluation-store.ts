import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import {
  evaluationRowSchema,
  evaluationSummarySchema,
  type EvaluationRow,
  type EvaluationSummary,
} from "@/lib/designer/evaluate";

/**
 * Stored designer evaluations (DesignerEvaluation): created running with the number of requests,
 * a row appended per finished request, the summary when done. A running one not updated for
 * STALE_MS (its server stopped) reads as failed.
 */

export const STALE_MS = 10 * 60_000;

export type EvaluationStatus = "running" | "done" | "failed";

export interface EvaluationView {
  id: string;
  label: string;
  model: string;
  path: string;
  providerId: string | null;
  source: string;
  status: EvaluationStatus;
  total: number;
  rows: EvaluationRow[];
  summary: EvaluationSummary | null;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

type Row = Awaited<ReturnType<ReturnType<typeof db>["designerEvaluation"]["findFirstOrThrow"]>>;

function view(row: Row, now = Date.now()): EvaluationView {
  const rows = z.array(evaluationRowSchema).safeParse(row.rows);
  const summary = evaluationSummarySchema.safeParse(row.summary);
  const stale = row.status === "running" && now - row.updatedAt.getTime() > STALE_MS;
  return {
    id: row.id,
    label: row.label,
    model: row.model,
    path: row.path,
    providerId: row.providerId,
    source: row.source,
    status: stale ? "failed" : (row.status as EvaluationStatus),
    total: row.total,
    rows: rows.success ? rows.data : [],
    summary: summary.success ? summary.data : null,
    error: stale ? "The evaluation stopped (its server was restarted or went away)." : row.error,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
  };
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/** Starts a stored evaluation (status running). */
export async function createEvaluation(
  workspaceId: string,
  input: {
    label: string;
    model: string;
    path: string;
    providerId: string | null;
    total: number;
    source: "ui" | "command";
  },
): Promise<EvaluationView> {
  return view(await db().designerEvaluation.create({ data: { workspaceId, ...input, status: "running" } }));
}

/** Records the rows so far (progress). */
export async function recordRows(id: string, rows: EvaluationRow[]): Promise<void> {
  await db().designerEvaluation.update({ where: { id }, data: { rows: json(rows) } });
}

/** Ends an evaluation: done with its summary, or failed with why. */
export async function finishEvaluation(
  id: string,
  end: { rows: EvaluationRow[]; summary: EvaluationSummary } | { error: string; rows: EvaluationRow[] },
): Promise<void> {
  const data =
    "summary" in end
      ? { status: "done", rows: json(end.rows), summary: json(end.summary), finishedAt: new Date() }
      : { status: "failed", rows: json(end.rows), error: end.error.slice(0, 2000), finishedAt: new Date() };
  await db().designerEvaluation.update({ where: { id }, data });
}

/** One of the owner's evaluations, or null. */
export async function getEvaluation(workspaceId: string, id: string): Promise<EvaluationView | null> {
  const row = await db().designerEvaluation.findFirst({ where: { id, workspaceId } });
  return row ? view(row) : null;
}

/** The owner's evaluations, newest first. */
export async function listEvaluations(workspaceId: string, take = 20): Promise<EvaluationView[]> {
  return (await db().designerEvaluation.findMany({ where: { workspaceId }, orderBy: { createdAt: "desc" }, take })).map(
    (r) => view(r),
  );
}

/** The owner's evaluation still running, if any (one at a time). */
export async function runningEvaluation(workspaceId: string): Promise<EvaluationView | null> {
  const rows = await db().designerEvaluation.findMany({
    where: { workspaceId, status: "running" },
    orderBy: { createdAt: "desc" },
  });
  return rows.map((r) => view(r)).find((v) => v.status === "running") ?? null;
}
