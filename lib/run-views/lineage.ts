import "server-only";
import { db } from "@/lib/db/client";
import type { LineageRunView, RunLineageView } from "./dto";

/** How far up a chain of retries of retries the page looks. */
const CHAIN_MAX = 20;

const select = {
  id: true,
  trigger: true,
  status: true,
  createdAt: true,
  sourceRunId: true,
  sourceNodeId: true,
  sourceIteration: true,
} as const;
type Row = {
  id: string;
  trigger: LineageRunView["trigger"];
  status: string;
  createdAt: Date;
  sourceRunId: string | null;
  sourceNodeId: string | null;
  sourceIteration: number | null;
};

const view = (r: Row): LineageRunView => ({
  id: r.id,
  trigger: r.trigger,
  status: r.status,
  createdAt: r.createdAt.toISOString(),
  forkedAt:
    r.sourceNodeId && r.sourceIteration !== null ? { nodeId: r.sourceNodeId, iteration: r.sourceIteration } : null,
});

/**
 * The lineage of one of the owner's runs (its source chain back to the original, and the retries
 * and forks made of it), or null when it is not theirs. Runs of other owners never appear (a chain
 * stops at a source that was deleted).
 */
export async function runLineage(workspaceId: string, runId: string): Promise<RunLineageView | null> {
  const run = await db().run.findFirst({ where: { id: runId, workspaceId }, select });
  if (!run) return null;
  const chain: LineageRunView[] = [];
  for (let at = run.sourceRunId; at && chain.length < CHAIN_MAX;) {
    const up: Row | null = await db().run.findFirst({ where: { id: at, workspaceId }, select });
    if (!up) break;
    chain.unshift(view(up));
    at = up.sourceRunId;
  }
  const derived = await db().run.findMany({
    where: { sourceRunId: runId, workspaceId },
    orderBy: { createdAt: "asc" },
    take: 100,
    select,
  });
  return { chain, forkedAt: view(run).forkedAt, derived: derived.map(view) };
}
