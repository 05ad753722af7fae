import "server-only";
import { db } from "@/lib/db/client";
import { terminalRunStatuses } from "@/lib/engine/events";
import type { SubflowStart, SubflowsPort } from "@/lib/engine/ports";
import { AppError } from "@/lib/errors";
import { createLogger } from "@/lib/logger";
import { SUBFLOW_MAX_DEPTH } from "@/lib/workflow/schema";
import { cancelRun, startRun } from "./service";
import { settleSubflowSteps } from "./subflow-answers";

const log = createLogger({ component: "run-subflows" });

/**
 * Starts a subflow step's child run as the parent run's owner: the workflow must be theirs and have
 * a saved version (the pinned one, else the newest), the inputs must fit its input fields, and the
 * parent must nest less than SUBFLOW_MAX_DEPTH deep. Through startRun (same checks and per-user rate
 * limit as any start) under an idempotency key of the parent step (and its error-policy try), so a
 * re-dispatched attempt of the step gets the child its first attempt started, a retry a child of its own. Throws an Error whose message becomes the step's error.
 */
export async function startSubflowRun(
  workspaceId: string,
  req: SubflowStart,
): Promise<{ runId: string; workflowName: string }> {
  const parent = await db().run.findFirst({ where: { id: req.parentRunId, workspaceId }, select: { depth: true } });
  if (!parent) throw new Error("the run that starts the subflow is gone");
  const depth = parent.depth + 1;
  if (depth > SUBFLOW_MAX_DEPTH) {
    throw new Error(
      `subflows nest at most ${SUBFLOW_MAX_DEPTH} deep and this run is already ${parent.depth} deep (does a workflow run itself?)`,
    );
  }
  const target = await db().workflow.findFirst({
    where: { id: req.workflowId, workspaceId },
    select: { name: true, versions: { orderBy: { version: "desc" }, take: 1, select: { version: true } } },
  });
  if (!target) throw new Error(`the workflow to run (${req.workflowId}) does not exist or is not yours`);
  const version = req.version ?? target.versions[0]?.version;
  if (version === undefined)
    throw new Error(
      `workflow "${target.name}" has no saved version: subflows run saved versions, so save one in the editor`,
    );
  const origin = {
    trigger: "subflow" as const,
    label: req.parentRunId,
    idempotencyKey: `subflow:${req.parentRunId}:${req.nodeId}:${req.iteration}${req.retry ? `:r${req.retry}` : ""}`,
    parent: { runId: req.parentRunId, nodeId: req.nodeId, iteration: req.iteration, depth },
  };
  try {
    const { run } = await startRun(workspaceId, req.workflowId, { inputs: req.inputs, version }, origin);
    return { runId: run.id, workflowName: run.workflowName };
  } catch (err) {
    if (err instanceof AppError)
      throw new Error(
        `workflow "${target.name}" v${version} refused to start: ${err.message}${detailText(err.details)}`,
      );
    throw err;
  }
}

/** A zod tree of refused inputs (startRun's details) as "key: message" pairs. */
function detailText(details: unknown): string {
  const props = (details as { properties?: Record<string, { errors?: string[] }> } | undefined)?.properties;
  if (!props) return "";
  const parts = Object.entries(props).flatMap(([key, v]) => (v.errors ?? []).map((e) => `${key}: ${e}`));
  return parts.length ? ` (${parts.join("; ")})` : "";
}

/** The subflows port of a run job whose owner is known at the first call (engine-ports.ts). */
export const subflowsPort = (owner: () => string): SubflowsPort => ({ start: (req) => startSubflowRun(owner(), req) });

/**
 * A run ended: its child runs still going are cancelled (their results could no longer be used).
 * Answers how many it asked to cancel.
 */
export async function cancelChildRuns(parentRunId: string): Promise<number> {
  const children = await db().run.findMany({
    where: { parentRunId, status: { in: ["queued", "running", "waiting"] } },
    select: { id: true, workspaceId: true, parent: { select: { status: true } } },
  });
  for (const c of children)
    await cancelRun(c.workspaceId, c.id, `The run that started it ended (${c.parent?.status ?? "gone"}).`);
  return children.length;
}

/**
 * The reconciler's subflow pass: child runs still going whose parent has ended are cancelled, and
 * waiting subflow steps whose child ended unnoticed are answered (a worker died in between).
 */
export async function reconcileSubflows(): Promise<{ cancelled: number; settled: number }> {
  const orphans = await db().$queryRaw<{ parentRunId: string }[]>`
    SELECT DISTINCT c."parentRunId" FROM "Run" c JOIN "Run" p ON p.id = c."parentRunId"
    WHERE c.status IN ('queued', 'running', 'waiting') AND p.status::text = ANY(${[...terminalRunStatuses]}::text[])
    LIMIT 500`;
  let cancelled = 0;
  for (const o of orphans) cancelled += await cancelChildRuns(o.parentRunId);
  const settled = await settleSubflowSteps();
  if (cancelled || settled) log.info("subflows reconciled", { cancelled, settled });
  return { cancelled, settled };
}
