import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { readRunNow, withEnd } from "@/lib/db/run-log";
import { runStatuses } from "@/lib/engine/events";
import type { Prisma, RunStatus, StepStatus } from "@/lib/generated/prisma/client";
import { runTriggers, type RunTrigger } from "@/lib/workflow/runs";

/** A row of the runs list. */
export interface RunSummary {
  id: string;
  status: RunStatus;
  reason: string | null;
  workflowId: string;
  workflowName: string;
  workflowVersionId: string;
  version: number;
  promptTokens: number;
  completionTokens: number;
  stepCount: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  trigger: RunTrigger;
  triggerLabel: string | null;
  /** A retry's or fork's source run (lineage), and for a fork the step it forked at. */
  sourceRunId: string | null;
  sourceNodeId: string | null;
  sourceIteration: number | null;
  /** How many retries and forks were made of this run. */
  derivedCount: number;
}

/** One step row as read (dates as Date); lib/run-views/dto.ts `stepView` makes it the StepView pages render. */
export interface StepRow {
  id: string;
  nodeId: string;
  iteration: number;
  attempt: number;
  status: StepStatus;
  input: unknown;
  output: unknown;
  branch: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number | null;
  error: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** A run with its inputs/outputs and steps (in start order). */
export interface RunDetail extends RunSummary {
  inputs: unknown;
  outputs: unknown;
  cancelRequested: boolean;
  /** Last allocated event seq (0 = none yet). */
  lastSeq: number;
  steps: StepRow[];
}

/** Filters of the runs list; `cursor` is the id of the last run of the previous page. */
export const runListFilterSchema = z.object({
  workflowId: z.string().min(1).max(64).optional(),
  status: z.enum(runStatuses).optional(),
  trigger: z.enum(runTriggers).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).max(64).optional(),
});
export type RunListFilter = z.input<typeof runListFilterSchema>;

const summarySelect = {
  id: true,
  status: true,
  reason: true,
  workflowVersionId: true,
  promptTokens: true,
  completionTokens: true,
  stepCount: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  trigger: true,
  triggerLabel: true,
  sourceRunId: true,
  sourceNodeId: true,
  sourceIteration: true,
  _count: { select: { derived: true } },
  workflowVersion: { select: { version: true, workflow: { select: { id: true, name: true } } } },
} satisfies Prisma.RunSelect;

type SummaryRow = Prisma.RunGetPayload<{ select: typeof summarySelect }>;

function summaryOf({ workflowVersion, _count, ...r }: SummaryRow): RunSummary {
  return {
    ...r,
    derivedCount: _count.derived,
    workflowId: workflowVersion.workflow.id,
    workflowName: workflowVersion.workflow.name,
    version: workflowVersion.version,
  };
}

/** The owner's runs, newest first, filtered; another user's runs never appear. */
export async function listRunsForOwner(
  workspaceId: string,
  filter: RunListFilter = {},
): Promise<{ runs: RunSummary[]; nextCursor: string | null }> {
  const f = runListFilterSchema.parse(filter);
  const rows = await db().run.findMany({
    where: {
      workspaceId,
      ...(f.status ? { status: f.status } : {}),
      ...(f.trigger ? { trigger: f.trigger } : {}),
      ...(f.workflowId ? { workflowVersion: { workflowId: f.workflowId } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: f.limit + 1,
    ...(f.cursor ? { cursor: { id: f.cursor }, skip: 1 } : {}),
    select: summarySelect,
  });
  const page = rows.slice(0, f.limit);
  return { runs: page.map(summaryOf), nextCursor: rows.length > f.limit ? (page.at(-1)?.id ?? null) : null };
}

/** One of the owner's runs with its steps, or null (someone else's run looks exactly like a missing one). */
export async function getRunForOwner(workspaceId: string, runId: string): Promise<RunDetail | null> {
  const row = await db().run.findFirst({
    where: { id: runId, workspaceId },
    select: { ...summarySelect, inputs: true, outputs: true, cancelRequested: true },
  });
  // steps, counters, last seq and a logged end with the run's log folded in (a running run's may be ahead of its rows)
  const now = row && (await readRunNow(runId));
  if (!row || !now) return null;
  const { inputs, outputs, cancelRequested, ...summary } = withEnd(row, now.end);
  return {
    ...summaryOf({
      ...summary,
      promptTokens: now.promptTokens,
      completionTokens: now.completionTokens,
      stepCount: now.stepCount,
    }),
    inputs,
    outputs,
    cancelRequested,
    lastSeq: now.lastSeq,
    steps: now.steps.map((s) => ({
      id: s.id,
      nodeId: s.nodeId,
      iteration: s.iteration,
      attempt: s.attempt,
      status: s.status,
      input: s.input,
      output: s.output,
      branch: s.branch,
      promptTokens: s.promptTokens,
      completionTokens: s.completionTokens,
      latencyMs: s.latencyMs,
      error: s.error,
      startedAt: s.startedAt,
      finishedAt: s.finishedAt,
    })),
  };
}

/** True when the run exists and belongs to `workspaceId` (authorises the SSE stream). */
export async function isRunOwnedBy(workspaceId: string, runId: string): Promise<boolean> {
  const n = await db().run.count({ where: { id: runId, workspaceId } });
  return n === 1;
}

/**
 * A waiting step that waits for a person (a human review), not for a child run (a subflow's step,
 * whose stored request says kind "subflow"); `run` is the SQL expression of the run's id. Also
 * used by the run.waiting notifications (deliveries.ts).
 */
export const personStepSql = (run: string) =>
  `EXISTS (SELECT 1 FROM "Step" s WHERE s."runId" = ${run} AND s.status = 'waiting' AND COALESCE(s.output->'request'->>'kind', '') <> 'subflow')`;

/** How many of the owner's runs wait for a person (a human review to answer): the navigation shows it. A run waiting only for its subflows' runs is not counted. */
export async function countWaitingRuns(workspaceId: string): Promise<number> {
  const rows = await db().$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM "Run" r WHERE r."workspaceId" = $1 AND r.status = 'waiting' AND ${personStepSql("r.id")}`,
    workspaceId,
  );
  return rows[0]?.n ?? 0;
}

/** Whether a run has a step waiting for a person (a human review), not only for its subflows' runs. */
export async function waitsForPerson(runId: string): Promise<boolean> {
  const rows = await db().$queryRawUnsafe<{ yes: boolean }[]>(`SELECT ${personStepSql("$1")} AS yes`, runId);
  return rows[0]?.yes ?? false;
}
