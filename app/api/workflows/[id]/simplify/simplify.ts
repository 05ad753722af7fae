import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { proposeSimplifications } from "@/lib/designer/simplify";
import type { SimplifyAnswer } from "@/lib/designer/simplify/answer";
import { AppError } from "@/lib/errors";
import { compareWorkflows, SIMPLIFY_TOLERANCE, type ComparePorts } from "@/lib/evals/compare";
import { getDataset } from "@/lib/evals/datasets";
import { evaluatorListSchema } from "@/lib/evals/evaluator-spec";
import { judgeCell } from "@/lib/evals/judge";
import { createLogger } from "@/lib/logger";
import { llmModelPort } from "@/lib/providers/model-port";
import { ownerModelResolver } from "@/lib/providers/resolver";
import { dryRunTools } from "@/lib/tools/dry-run-tools";
import { registryToolsPort } from "@/lib/tools/registry";
import { validate } from "@/lib/workflow/validate";
import type { Workflow } from "@/lib/workflow/schema";

const log = createLogger({ component: "simplify" });

/** The most dataset rows one request evaluates on (each row runs once per workflow compared). */
export const SIMPLIFY_ROWS_MAX = 10;

export const simplifyBodySchema = z.strictObject({
  /** The editor's current graph (validated as a workflow document); absent = the saved draft. */
  workflow: z.unknown().optional(),
  /** The dataset to evaluate on; absent = the newest of the workflow's datasets; `null` = no evaluation. */
  datasetId: z.string().min(1).max(100).nullable().optional(),
  /** The evaluators (an experiment's specs); absent = the defaults (lib/evals/compare.ts). */
  evaluators: evaluatorListSchema.optional(),
  /** How far below the original's score a merge may fall and still be kept. */
  tolerance: z.number().min(0).max(1).default(SIMPLIFY_TOLERANCE),
});
export type SimplifyBody = z.output<typeof simplifyBodySchema>;

/** The dataset to evaluate on: the one asked for (the caller's), else the newest with rows of this workflow. */
async function pickDataset(workspaceId: string, workflowId: string, asked: string | null | undefined) {
  if (asked === null) return null;
  if (asked) return getDataset(workspaceId, asked);
  const newest = await db().dataset.findFirst({
    where: { workspaceId, workflowId, version: { gt: 0 } },
    orderBy: { updatedAt: "desc" },
    select: { id: true },
  });
  return newest ? getDataset(workspaceId, newest.id) : null;
}

function ports(workspaceId: string): ComparePorts {
  const resolve = ownerModelResolver(workspaceId);
  return {
    model: llmModelPort(resolve),
    // read-only tools run; side-effecting ones are not performed (as in the designer's dry run)
    tools: dryRunTools(registryToolsPort(workspaceId)),
    logger: log,
    judge: (spec, facts) => judgeCell(spec, facts, resolve),
  };
}

/**
 * "Simplify this workflow": the merges the rules propose for `workflow`, each evaluated on the
 * dataset (when there is one) against the original and marked kept or rejected. Nothing is stored.
 */
export async function simplify(
  workspaceId: string,
  workflowId: string,
  workflow: Workflow,
  body: SimplifyBody,
  options: { signal?: AbortSignal; beforeEvaluation?: () => Promise<void> } = {},
): Promise<SimplifyAnswer> {
  const errors = validate(workflow).filter((i) => i.severity === "error");
  if (errors.length > 0)
    throw new AppError(
      "invalid_workflow",
      `The workflow has ${errors.length} error(s); fix them before simplifying it.`,
      errors.slice(0, 20),
    );
  const proposals = proposeSimplifications(workflow);
  const dataset = await pickDataset(workspaceId, workflowId, body.datasetId);
  if (!dataset || dataset.rows.length === 0 || proposals.length === 0)
    return { proposals: proposals.map((p) => ({ ...p, evaluation: null })), evaluation: null };
  await options.beforeEvaluation?.();
  const rows = dataset.rows.slice(0, SIMPLIFY_ROWS_MAX).map((r) => ({ inputs: r.inputs, reference: r.reference }));
  const started = Date.now();
  const comparison = await compareWorkflows(ports(workspaceId), workflow, proposals, rows, {
    ...(body.evaluators ? { evaluators: body.evaluators } : {}),
    tolerance: body.tolerance,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  log.info("simplify evaluated", {
    workspaceId,
    workflowId,
    proposals: proposals.length,
    rows: rows.length,
    ms: Date.now() - started,
  });
  return {
    proposals: proposals.map((p) => {
      const c = comparison.candidates.find((x) => x.id === p.id)!;
      return {
        ...p,
        evaluation: { kept: c.kept, reason: c.reason, ...c.score },
      };
    }),
    evaluation: {
      datasetId: dataset.id,
      datasetName: dataset.name,
      rows: rows.length,
      rowsSkipped: dataset.rows.length - rows.length,
      tolerance: comparison.tolerance,
      reference: comparison.reference,
      evaluators: comparison.evaluators,
      original: comparison.original,
    },
  };
}
