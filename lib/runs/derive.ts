import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { getRunForOwner, type RunDetail, type StepRow } from "@/lib/db/runs";
import { hasReusableResult, seedFromSteps, type SeedEdit } from "@/lib/engine/planner";
import { AppError, notFound } from "@/lib/errors";
import { inputsSchema } from "@/lib/workflow/inputs";
import { changedNodes } from "@/lib/workflow/node-changes";
import { outcomesOf, workflowSchema, type Workflow } from "@/lib/workflow/schema";
import { checkRunValue } from "./input-limits";
import { runnableVersion, startRun, type StartedRun } from "./service";

/**
 * Runs derived from another run (lineage): "retry from the failed step" and forks. Both start a new
 * run linked to its source (Run.sourceRunId; trigger `retry` / `fork`, label = the source's id)
 * whose seed holds the source's step results (lib/engine/planner/reuse.ts): the engine answers
 * every step whose result still holds from the seed, without calling a model or making a side
 * effect, and runs the rest. Against "the version it ran" nothing changed, so only the failed steps
 * and what follows them run; against "the current version" the nodes whose settings, agents,
 * variables or default model changed (lib/workflow/node-changes.ts) run again, and so does
 * everything downstream of them.
 */

/** Which version a derived run runs: the source's, or the workflow's current one (the draft, saved if it changed). */
export const versionChoice = z.enum(["original", "current"]).default("original");

export const retrySchema = z.object({ version: versionChoice });
export type RetryInput = z.input<typeof retrySchema>;

export const forkSchema = z.object({
  nodeId: z.string().min(1).max(64),
  /** Which visit of the node; default its latest. */
  iteration: z.number().int().positive().optional(),
  /** The step's new output (JSON); default its recorded one. Forking at the start step: the run's new inputs. */
  output: z.unknown().optional(),
  /** The outcome to follow from the step; default the recorded one (or the node's only one). */
  branch: z.string().min(1).max(64).optional(),
  version: versionChoice,
});
export type ForkInput = z.input<typeof forkSchema>;

/** What a retry or fork reuses: how many recorded steps, which nodes changed since, and where it runs from. */
export interface ReusePlan {
  reusable: number;
  changedNodes: string[];
  /** The nodes whose steps run again first (the failed or unfinished ones, the changed ones, the fork's step). */
  runsFrom: string[];
}

export type DerivedRun = StartedRun & { reuse: ReusePlan };

/** The statuses a run can be retried from its failed step in. */
export const RETRYABLE_STATUSES = ["failed", "cancelled", "budget_exhausted"] as const;

/** One of the owner's runs with the document it ran; 404 for anyone else's. */
async function source(workspaceId: string, runId: string): Promise<{ run: RunDetail; doc: Workflow }> {
  const run = await getRunForOwner(workspaceId, runId);
  if (!run) throw notFound("Run not found");
  const version = await db().workflowVersion.findUnique({
    where: { id: run.workflowVersionId },
    select: { document: true },
  });
  const doc = workflowSchema.safeParse(version?.document);
  if (!doc.success) throw new AppError("conflict", "The workflow version this run ran cannot be read.");
  return { run, doc: doc.data };
}

/** The version a derived run runs, with its document. */
async function target(
  workspaceId: string,
  run: RunDetail,
  doc: Workflow,
  choice: "original" | "current",
): Promise<{ version: number; doc: Workflow }> {
  if (choice === "original") return { version: run.version, doc };
  const current = await runnableVersion(workspaceId, run.workflowId);
  return { version: current.version, doc: current.document };
}

const unfinished = (s: StepRow) => !hasReusableResult(s) && s.status !== "skipped";

/**
 * Retry from the failed step: a new run of the source's inputs that reuses every step result of the
 * source that still holds and runs the failed (or cancelled) steps and what follows them. Only for a
 * run that failed, was cancelled or ran out of a budget (409 otherwise).
 */
export async function retryRun(workspaceId: string, runId: string, input: RetryInput = {}): Promise<DerivedRun> {
  const body = retrySchema.parse(input);
  const { run, doc } = await source(workspaceId, runId);
  if (!(RETRYABLE_STATUSES as readonly string[]).includes(run.status)) {
    throw new AppError(
      "conflict",
      `Only a failed, cancelled or budget-exhausted run can be retried from its failed step ` +
        `(this one is ${run.status}); re-run it instead.`,
    );
  }
  const to = await target(workspaceId, run, doc, body.version);
  const changed = body.version === "current" ? changedNodes(doc, to.doc) : [];
  const seed = seedFromSteps(run.id, run.steps, { except: new Set(changed) });
  const runsFrom = [...new Set([...run.steps.filter(unfinished).map((s) => s.nodeId), ...changed])];
  const started = await startRun(
    workspaceId,
    run.workflowId,
    { inputs: (run.inputs ?? {}) as Record<string, unknown>, version: to.version },
    {
      trigger: "retry",
      label: run.id,
      lineage: { runId: run.id, seed },
    },
  );
  return { ...started, reuse: { reusable: Object.keys(seed.steps).length, changedNodes: changed, runsFrom } };
}

/**
 * Fork from a step (time travel): a new run that reuses the source's results up to the chosen step,
 * gives that step the edited output (and outcome), and runs everything that depends on it. Forking
 * at the start step edits the run's inputs. The step must have ended (succeeded, or failed: a fork
 * can supply the output a failed step should have had).
 */
export async function forkRun(workspaceId: string, runId: string, input: ForkInput): Promise<DerivedRun> {
  const body = forkSchema.parse(input);
  const { run, doc } = await source(workspaceId, runId);
  const visits = run.steps.filter((s) => s.nodeId === body.nodeId);
  const step =
    body.iteration === undefined
      ? visits.sort((a, b) => b.iteration - a.iteration)[0]
      : visits.find((s) => s.iteration === body.iteration);
  if (!step)
    throw notFound(`The run has no step "${body.nodeId}"${body.iteration ? ` (iteration ${body.iteration})` : ""}.`);
  if (!["succeeded", "failed", "timed_out"].includes(step.status)) {
    throw new AppError("conflict", `Step "${step.nodeId}" is ${step.status}; a fork starts from a step that ended.`);
  }
  const to = await target(workspaceId, run, doc, body.version);
  const node = to.doc.nodes.find((n) => n.id === step.nodeId);
  if (!node) throw new AppError("conflict", `Node "${step.nodeId}" is not in the version the fork would run.`);
  const edit = editOf(step, body, outcomesOf(node), node.type === "start" ? to.doc : null);
  const changed = body.version === "current" ? changedNodes(doc, to.doc) : [];
  const seed = seedFromSteps(run.id, run.steps, { except: new Set(changed), edit });
  const inputs = (node.type === "start" ? edit.output : (run.inputs ?? {})) as Record<string, unknown>;
  const started = await startRun(
    workspaceId,
    run.workflowId,
    { inputs, version: to.version },
    {
      trigger: "fork",
      label: run.id,
      lineage: { runId: run.id, nodeId: step.nodeId, iteration: step.iteration, seed },
    },
  );
  return {
    ...started,
    reuse: {
      reusable: Object.keys(seed.steps).length - 1,
      changedNodes: changed,
      runsFrom: [...new Set([step.nodeId, ...changed])],
    },
  };
}

/** The fork's edit of `step`, checked: its size and depth, its outcome, the input fields at the start (`startDoc`). */
function editOf(
  step: StepRow,
  body: z.infer<typeof forkSchema>,
  outcomes: string[],
  startDoc: Workflow | null,
): SeedEdit {
  let output = body.output === undefined ? step.output : body.output;
  checkRunValue(output, "The edited output");
  if (startDoc) {
    const parsed = inputsSchema(startDoc.inputs).safeParse(output);
    if (!parsed.success)
      throw new AppError(
        "bad_request",
        "The edited inputs do not match the workflow's input fields.",
        z.treeifyError(parsed.error),
      );
    output = parsed.data;
  }
  const branch = body.branch ?? step.branch ?? (outcomes.length === 1 ? outcomes[0]! : null);
  if (outcomes.length > 0 && (branch === null || !outcomes.includes(branch))) {
    throw new AppError(
      "bad_request",
      `Choose the outcome the fork follows from "${step.nodeId}": one of ${outcomes.join(", ")}.`,
      { field: "branch", outcomes },
    );
  }
  return { nodeId: step.nodeId, iteration: step.iteration, output, branch: outcomes.length > 0 ? branch : null };
}
