import "server-only";
import { db } from "@/lib/db/client";
import { getRunForOwner, type RunDetail } from "@/lib/db/runs";
import { notFound } from "@/lib/errors";
import { workflowSchema } from "@/lib/workflow/schema";
import type { ComparedRunView, RunComparisonView } from "./dto";
import { getSettings } from "@/lib/db/settings";
import { estimateCost } from "./cost";
import { usageByModel } from "./dashboard";
import { diffRuns, type ReusedSteps } from "./run-diff";

/** The steps of a run that were answered from its source (step_started events with `reused`). */
async function reusedSteps(runId: string): Promise<ReusedSteps> {
  const rows = await db().runEvent.findMany({ where: { runId, type: "step_started" }, select: { payload: true } });
  const out = new Map<string, boolean>();
  for (const { payload } of rows) {
    const p = payload as { nodeId?: string; iteration?: number; reused?: { edited?: boolean } };
    if (p.reused && p.nodeId && p.iteration) out.set(`${p.nodeId}#${p.iteration}`, p.reused.edited === true);
  }
  return out;
}

const head = (r: RunDetail, costUsd: number | null): ComparedRunView => ({
  id: r.id,
  workflowName: r.workflowName,
  version: r.version,
  status: r.status,
  trigger: r.trigger,
  createdAt: r.createdAt.toISOString(),
  outputs: r.outputs,
  durationMs: r.startedAt ? (r.finishedAt ?? new Date()).getTime() - r.startedAt.getTime() : null,
  tokens: r.promptTokens + r.completionTokens,
  costUsd,
});

/** Node names of the documents of the given versions, by node id, in the documents' node order. */
async function nodeNames(versionIds: string[]): Promise<Record<string, string>> {
  const versions = await db().workflowVersion.findMany({
    where: { id: { in: versionIds } },
    select: { id: true, document: true },
  });
  const names: Record<string, string> = {};
  for (const id of versionIds) {
    const doc = workflowSchema.safeParse(versions.find((v) => v.id === id)?.document).data;
    for (const n of doc?.nodes ?? []) names[n.id] ??= n.name || n.id;
  }
  return names;
}

/** Two of the owner's runs side by side, step by step (404 when either is not theirs). */
export async function compareRuns(workspaceId: string, leftId: string, rightId: string): Promise<RunComparisonView> {
  const [left, right] = await Promise.all([getRunForOwner(workspaceId, leftId), getRunForOwner(workspaceId, rightId)]);
  if (!left || !right) throw notFound("Run not found");
  const [reusedLeft, reusedRight, names, usage, settings] = await Promise.all([
    reusedSteps(left.id),
    reusedSteps(right.id),
    nodeNames([left.workflowVersionId, right.workflowVersionId]),
    usageByModel([left.id, right.id]),
    getSettings(workspaceId),
  ]);
  const rows = diffRuns(left.steps, right.steps, { left: reusedLeft, right: reusedRight }, Object.keys(names));
  const cost = (r: RunDetail) => estimateCost(settings.prices, usage.get(r.id) ?? []);
  return { left: head(left, cost(left)), right: head(right, cost(right)), rows, nodeNames: names };
}
