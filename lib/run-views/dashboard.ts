import "server-only";
import { db } from "@/lib/db/client";
import { getRunForOwner, listRunsForOwner, type RunDetail, type RunListFilter } from "@/lib/db/runs";
import { getSettings, type PriceTable } from "@/lib/db/settings";
import { notFound } from "@/lib/errors";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";
import { subflowWorkflowIds } from "@/lib/workflow/validate-subflows";
import { estimateCost, type ModelUsage } from "./cost";
import type { RunRow } from "./dto";

/** Everything the owner's run page starts from; live changes come from the event stream. */
export interface RunDashboard {
  run: RunDetail;
  doc: Workflow | null;
  prices: PriceTable;
  /** The owner's workflows the document's subflow nodes run, by id → name (a node names its workflow before its step starts). */
  subflowNames: Record<string, string>;
}

/** The owner's run with the document of its version and the owner's price table; 404 for anyone else's. */
export async function getRunDashboard(workspaceId: string, runId: string): Promise<RunDashboard> {
  const run = await getRunForOwner(workspaceId, runId);
  if (!run) throw notFound("Run not found");
  const [version, settings] = await Promise.all([
    db().workflowVersion.findUnique({ where: { id: run.workflowVersionId }, select: { document: true } }),
    getSettings(workspaceId),
  ]);
  const doc = workflowSchema.safeParse(version?.document);
  return {
    run,
    doc: doc.success ? doc.data : null,
    prices: settings.prices,
    subflowNames: doc.success ? await subflowNames(workspaceId, doc.data) : {},
  };
}

/** The names of the owner's workflows that `doc`'s subflow nodes run (another user's or a deleted one is left out). */
async function subflowNames(workspaceId: string, doc: Workflow): Promise<Record<string, string>> {
  const ids = subflowWorkflowIds(doc);
  if (ids.length === 0) return {};
  const rows = await db().workflow.findMany({
    where: { workspaceId, id: { in: ids } },
    select: { id: true, name: true },
  });
  return Object.fromEntries(rows.map((r) => [r.id, r.name]));
}

/**
 * Token usage per model of each run (summed tokens_used events). Callers pass run ids they already
 * authorised (the owner's list); unknown ids simply return nothing.
 */
export async function usageByModel(runIds: readonly string[]): Promise<Map<string, ModelUsage[]>> {
  const out = new Map<string, ModelUsage[]>();
  if (runIds.length === 0) return out;
  const rows = await db().$queryRaw<{ runId: string; model: string; p: bigint; c: bigint }[]>`
    SELECT "runId", payload->>'model' AS model,
           SUM((payload->>'promptTokens')::bigint) AS p, SUM((payload->>'completionTokens')::bigint) AS c
    FROM "RunEvent" WHERE type = 'tokens_used' AND "runId" = ANY(${[...runIds]}::text[])
    GROUP BY "runId", payload->>'model'`;
  for (const r of rows) {
    const list = out.get(r.runId) ?? [];
    list.push({ model: r.model ?? "unknown", promptTokens: Number(r.p), completionTokens: Number(r.c) });
    out.set(r.runId, list);
  }
  return out;
}

/** The owner's runs for the /runs page (newest first, filtered), each with its estimated cost. */
export async function listRunRows(
  workspaceId: string,
  filter: RunListFilter,
): Promise<{ runs: RunRow[]; nextCursor: string | null }> {
  const [{ runs, nextCursor }, settings] = await Promise.all([
    listRunsForOwner(workspaceId, filter),
    getSettings(workspaceId),
  ]);
  const usage = await usageByModel(runs.map((r) => r.id));
  const now = Date.now();
  return {
    nextCursor,
    runs: runs.map((r) => ({
      id: r.id,
      status: r.status,
      reason: r.reason,
      workflowId: r.workflowId,
      workflowName: r.workflowName,
      version: r.version,
      createdAt: r.createdAt.toISOString(),
      startedAt: r.startedAt?.toISOString() ?? null,
      finishedAt: r.finishedAt?.toISOString() ?? null,
      durationMs: r.startedAt ? (r.finishedAt?.getTime() ?? now) - r.startedAt.getTime() : null,
      trigger: r.trigger,
      triggerLabel: r.triggerLabel,
      sourceRunId: r.sourceRunId,
      sourceNodeId: r.sourceNodeId,
      derivedCount: r.derivedCount,
      stepCount: r.stepCount,
      tokens: r.promptTokens + r.completionTokens,
      costUsd: estimateCost(settings.prices, usage.get(r.id) ?? []),
    })),
  };
}
