import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { approveToolVersion } from "@/lib/db/tools";
import { isTerminalRunStatus } from "@/lib/engine/events";
import type { HumanAnswer } from "@/lib/engine/ports";
import { AppError, notFound } from "@/lib/errors";
import { createLogger } from "@/lib/logger";
import { enqueueRun, wakeRunJob } from "@/lib/queue";
import { workflowSchema } from "@/lib/workflow/schema";
import { ANSWER_COMMENT_MAX } from "@/lib/workflow/runs";
import { inputsSchema } from "@/lib/workflow/inputs";

const log = createLogger({ component: "run-answers" });

/** A person's answer to a human review: the choice (a branch id), the fields' values and an optional comment. */
export const answerSchema = z.object({
  nodeId: z.string().min(1).max(64),
  /** Which visit of the node; default the one waiting. */
  iteration: z.number().int().positive().optional(),
  choice: z.string().min(1).max(64),
  values: z.record(z.string(), z.unknown()).default({}),
  comment: z.string().trim().max(ANSWER_COMMENT_MAX).optional(),
});
export type AnswerInput = z.input<typeof answerSchema>;

const conflict = (message: string) => new AppError("conflict", message);

/**
 * Answers one of the owner's waiting human reviews: the choice must be one of the node's branches
 * and the values must match its fields (like a run's inputs). The answer is stored on the step (only
 * once: a second answer is refused), then the engine takes it: a parked run (`waiting`) is set
 * queued and enqueued, a run still working on other steps picks it up at its next poll. An agent
 * step waiting for the approval of a tool it wrote is answered `approve` (its code's hash is
 * approved first, so a changed code refuses the answer) or `reject`.
 */
export async function answerStep(
  workspaceId: string,
  runId: string,
  input: AnswerInput,
  answeredBy: string,
): Promise<{ nodeId: string; iteration: number; answer: HumanAnswer }> {
  const body = answerSchema.parse(input);
  const run = await db().run.findFirst({
    where: { id: runId, workspaceId },
    select: { status: true, workflowVersion: { select: { document: true } } },
  });
  if (!run) throw notFound("Run not found");
  if (isTerminalRunStatus(run.status))
    throw conflict(`The run has ended (${run.status}); its reviews can no longer be answered.`);
  const step = await db().step.findFirst({
    where: { runId, nodeId: body.nodeId, status: "waiting", ...(body.iteration ? { iteration: body.iteration } : {}) },
    orderBy: { iteration: "desc" },
    select: { id: true, iteration: true, answer: true, output: true },
  });
  if (!step) throw conflict(`Step "${body.nodeId}" is not waiting for an answer.`);
  if (step.answer !== null) throw conflict(`Step "${body.nodeId}" has already been answered.`);
  const doc = workflowSchema.safeParse(run.workflowVersion.document);
  const node = doc.success ? doc.data.nodes.find((n) => n.id === body.nodeId) : undefined;
  const tool = node?.type === "agent" ? waitingTool(step.output) : null;
  if (!node || (node.type !== "human" && !tool)) throw conflict(`Step "${body.nodeId}" is not a human review.`);
  const choices = tool ? TOOL_CHOICES : node.type === "human" ? node.branches.map((b) => b.id) : [];
  if (!choices.includes(body.choice)) {
    throw new AppError("bad_request", `"${body.choice}" is not one of the choices (${choices.join(", ")}).`, {
      field: "choice",
      choices,
    });
  }
  const values = inputsSchema(node.type === "human" ? node.fields : []).safeParse(body.values);
  if (!values.success)
    throw new AppError("bad_request", "The values do not match the review's fields.", z.treeifyError(values.error));
  // approving a tool approves the exact code the review showed (its hash), before the run may use it
  if (tool && body.choice === "approve") await approveToolVersion(workspaceId, tool.versionId, tool.codeHash);
  const answer: HumanAnswer = {
    choice: body.choice,
    values: values.data,
    ...(body.comment ? { comment: body.comment } : {}),
    answeredBy,
    answeredAt: new Date().toISOString(),
  };
  const stored = await db().$executeRaw`
    UPDATE "Step" SET answer = ${JSON.stringify(answer)}::jsonb WHERE id = ${step.id} AND status = 'waiting' AND answer IS NULL`;
  if (stored === 0) throw conflict(`Step "${body.nodeId}" has already been answered.`);
  // a parked run is woken; a run sleeping until an error-policy retry is due gets its delayed job now
  if (!(await resumeIfAnswered(runId)))
    await wakeRunJob(runId).catch((err: unknown) =>
      log.warn("answer stored; the run's delayed job was not woken", { runId, err }),
    );
  return { nodeId: body.nodeId, iteration: step.iteration, answer };
}

/** The answers to an agent's tool approval. */
const TOOL_CHOICES = ["approve", "reject"];

/** The tool an agent step waits to have approved (its stored request), or null. */
function waitingTool(output: unknown): { versionId: string; codeHash: string } | null {
  const parsed = z
    .object({ request: z.object({ tool: z.object({ versionId: z.string(), codeHash: z.string() }) }) })
    .safeParse(output);
  return parsed.success ? parsed.data.request.tool : null;
}

/**
 * Sets a parked run queued again (its wait added to pausedMs) and enqueues it. `answered`: only
 * when one of its waiting reviews holds an answer (after a job parked it: an answer may have come in
 * while it was parking); otherwise whatever the reason (a cancel). Answers whether it woke the run.
 */
export async function wakeWaitingRun(runId: string, only: "answered" | "any"): Promise<boolean> {
  const answered = only === "answered";
  const rows = await db().$queryRaw<{ id: string }[]>`
    UPDATE "Run" SET status = 'queued', "waitingSince" = NULL,
      "pausedMs" = "pausedMs" + GREATEST(0, (EXTRACT(EPOCH FROM ((now() AT TIME ZONE 'UTC') - COALESCE("waitingSince", now() AT TIME ZONE 'UTC'))) * 1000)::int)
    WHERE id = ${runId} AND status = 'waiting'
      AND (NOT ${answered} OR EXISTS (SELECT 1 FROM "Step" s WHERE s."runId" = ${runId} AND s.status = 'waiting' AND s.answer IS NOT NULL))
    RETURNING id`;
  if (rows.length === 0) return false;
  // the row is queued now: if the enqueue fails, the reconciler dispatches it
  await enqueueRun(runId, "resume").catch((err: unknown) =>
    log.warn("run woken but not enqueued (the reconciler will)", { runId, err }),
  );
  return true;
}

/** After an answer was stored (or a job parked a run): wakes the run if it is parked with an answer waiting. */
export const resumeIfAnswered = (runId: string): Promise<boolean> => wakeWaitingRun(runId, "answered");

/**
 * The reviews nobody answered within their timeoutMs (from the step's start) are answered by the
 * clock: with their timeoutChoice, or with none (the step then times out and fails the run). Runs
 * parked are woken; a run still working takes the answer at its next poll. Called by the worker's
 * reconciler each pass, so a review expires up to one interval late. Answers how many expired.
 */
export async function expireReviews(): Promise<number> {
  const due = await db().$queryRaw<{ id: string; runId: string; timeoutMs: number; timeoutChoice: string | null }[]>`
    SELECT s.id, s."runId", (s.output->'request'->>'timeoutMs')::int AS "timeoutMs", s.output->'request'->>'timeoutChoice' AS "timeoutChoice"
    FROM "Run" r JOIN "Step" s ON s."runId" = r.id
    WHERE r.status IN ('waiting', 'running', 'queued') AND s.status = 'waiting' AND s.answer IS NULL
      AND s.output->'request' ? 'timeoutMs'
      AND s."startedAt" + make_interval(secs => (s.output->'request'->>'timeoutMs')::numeric / 1000) <= (now() AT TIME ZONE 'UTC')
    LIMIT 500`;
  let expired = 0;
  for (const d of due) {
    const answer: HumanAnswer = {
      choice: d.timeoutChoice ?? "",
      values: {},
      answeredBy: "timeout",
      answeredAt: new Date().toISOString(),
      timedOutAfterMs: d.timeoutMs,
    };
    const stored = await db().$executeRaw`
      UPDATE "Step" SET answer = ${JSON.stringify(answer)}::jsonb WHERE id = ${d.id} AND status = 'waiting' AND answer IS NULL`;
    if (stored === 0) continue;
    expired++;
    await resumeIfAnswered(d.runId);
  }
  if (expired) log.info("reviews expired unanswered", { count: expired });
  return expired;
}
