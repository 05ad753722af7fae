import "server-only";
import { db } from "@/lib/db/client";
import { isTerminalRunStatus, terminalRunStatuses, type RunStatus } from "@/lib/engine/events";
import type { HumanAnswer } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { resumeIfAnswered } from "./answers";
import { runStorePool } from "@/lib/run-store/run-sql";

const log = createLogger({ component: "run-subflows" });

/** Longest error a child run's end puts on its parent's step. */
const ERROR_MAX = 2_000;

/**
 * A subflow's child run ended: its end is stored as the answer of the parent's step (outputs, or an
 * error naming how it ended), and a parked parent is woken. The step may still be `running` (the
 * child ended before the parent committed its wait): the answer waits on the row and is taken when
 * the step waits. A waiting step takes only its own child's end (an error-policy retry of the step
 * waits for a child of its own). Idempotent (only an unanswered step takes it). Answers whether an
 * answer was stored.
 */
export async function settleParent(childRunId: string): Promise<boolean> {
  const rows = await db().$queryRaw<
    {
      status: RunStatus;
      reason: string | null;
      outputs: unknown;
      parentRunId: string | null;
      parentNodeId: string | null;
      parentIteration: number | null;
      name: string;
    }[]
  >`
    SELECT r.status::text AS status, r.reason, r.outputs, r."parentRunId", r."parentNodeId", r."parentIteration", w.name
    FROM "Run" r JOIN "WorkflowVersion" v ON v.id = r."workflowVersionId" JOIN "Workflow" w ON w.id = v."workflowId"
    WHERE r.id = ${childRunId}`;
  const child = rows[0];
  if (
    !child?.parentRunId ||
    !child.parentNodeId ||
    child.parentIteration === null ||
    !isTerminalRunStatus(child.status)
  )
    return false;
  const base = { choice: "done", values: {}, answeredBy: `run:${childRunId}`, answeredAt: new Date().toISOString() };
  const answer: HumanAnswer =
    child.status === "succeeded"
      ? { ...base, output: child.outputs ?? {} }
      : {
          ...base,
          error:
            `the run of "${child.name}" (${childRunId}) ended ${child.status}${child.reason ? `: ${child.reason}` : ""}`.slice(
              0,
              ERROR_MAX,
            ),
        };
  const stored = await db().$executeRaw`
    UPDATE "Step" SET answer = ${JSON.stringify(answer)}::jsonb
    WHERE "runId" = ${child.parentRunId} AND "nodeId" = ${child.parentNodeId} AND iteration = ${child.parentIteration}
      AND answer IS NULL AND (status = 'running' OR (status = 'waiting' AND output->'request'->>'runId' = ${childRunId}))`;
  if (stored === 0) return false;
  log.info("subflow run ended; its parent's step is answered", {
    runId: childRunId,
    parentRunId: child.parentRunId,
    status: child.status,
  });
  await resumeIfAnswered(child.parentRunId);
  return true;
}

/**
 * Waiting subflow steps whose child run has ended but whose answer is missing (the child ended
 * while the parent was committing its wait, or a worker died between the child's end and the
 * answer): settles them. A step whose child run is gone (its workflow was deleted, and its runs
 * with it) is answered with that error instead of waiting forever. `parentRunId` limits it to one
 * run (the worker, after parking it); without it the reconciler's pass looks at every live run.
 * Answers how many it settled.
 */
export async function settleSubflowSteps(parentRunId?: string): Promise<number> {
  const rows = await db().$queryRawUnsafe<
    { stepId: string; parentId: string; childId: string; ended: boolean; gone: boolean }[]
  >(
    `SELECT s.id AS "stepId", p.id AS "parentId", s.output->'request'->>'runId' AS "childId",
       COALESCE(c.status::text = ANY($1::text[]), false) AS ended, c.id IS NULL AS gone
     FROM "Run" p JOIN "Step" s ON s."runId" = p.id LEFT JOIN "Run" c ON c.id = s.output->'request'->>'runId'
     WHERE ${parentRunId ? `p.id = $2` : `p.status IN ('waiting', 'running', 'queued')`}
       AND s.status = 'waiting' AND s.answer IS NULL AND s.output->'request'->>'kind' = 'subflow'
       AND (c.id IS NULL OR c.status::text = ANY($1::text[]))
     LIMIT 500`,
    [...terminalRunStatuses],
    ...(parentRunId ? [parentRunId] : []),
  );
  let settled = 0;
  for (const r of rows) {
    if (r.gone ? await answerGone(r.stepId, r.parentId, r.childId) : await settleParent(r.childId)) settled++;
  }
  return settled;
}

/** A waiting subflow step whose child run no longer exists fails with that error. */
async function answerGone(stepId: string, parentRunId: string, childRunId: string): Promise<boolean> {
  const answer: HumanAnswer = {
    choice: "done",
    values: {},
    answeredBy: `run:${childRunId}`,
    answeredAt: new Date().toISOString(),
    error: `its run (${childRunId}) no longer exists (was its workflow deleted?)`,
  };
  const stored = await db()
    .$executeRaw`UPDATE "Step" SET answer = ${JSON.stringify(answer)}::jsonb WHERE id = ${stepId} AND status = 'waiting' AND answer IS NULL`;
  if (stored === 0) return false;
  await resumeIfAnswered(parentRunId);
  return true;
}

/**
 * After a run ended: whether it is a subflow's child (its end answers a parent's step) and whether
 * child runs of its own still go (to be cancelled). One prepared statement, read after every run's
 * end (after its wake-up went out, so it never delays the end a viewer sees).
 */
export async function subflowLinks(runId: string): Promise<{ hasParent: boolean; liveChildren: boolean }> {
  const res = await runStorePool().query<{ hasParent: boolean; liveChildren: boolean }>({
    name: "weft_run_subflow_links_v1",
    text: `SELECT r."parentRunId" IS NOT NULL AS "hasParent",
      EXISTS (SELECT 1 FROM "Run" c WHERE c."parentRunId" = r.id AND c.status IN ('queued', 'running', 'waiting')) AS "liveChildren"
      FROM "Run" r WHERE r.id = $1`,
    values: [runId],
  });
  return res.rows[0] ?? { hasParent: false, liveChildren: false };
}
