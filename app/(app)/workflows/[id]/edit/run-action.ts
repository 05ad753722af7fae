"use server";
import * as z from "zod";
import { requireAccess } from "@/lib/auth/access";
import { recordAudit } from "@/lib/db/audit";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { startRun } from "@/lib/runs/service";
import type { ActionResult } from "./actions";
import { describeRunRefusal } from "./input-errors";

const argsSchema = z.object({ workflowId: z.string().min(1).max(64), inputs: z.record(z.string(), z.unknown()) });

/**
 * Starts a run of the workflow's current draft from the editor: the server action twin of
 * POST /api/workflows/[id]/runs (same startRun, so the same validation, versioning and rate
 * limit). A refusal comes back as one line naming the inputs at fault.
 */
export async function startRunAction(
  workflowId: unknown,
  inputs: unknown,
): Promise<ActionResult<{ runId: string; dispatched: boolean }>> {
  const access = await requireAccess("run");
  const args = argsSchema.safeParse({ workflowId, inputs });
  if (!args.success)
    return { ok: false, error: "Invalid run request: give the workflow's id and its inputs as an object." };
  try {
    const { run, dispatched } = await startRun(access.workspaceId, args.data.workflowId, { inputs: args.data.inputs });
    await recordAudit(access, "run.started", { type: "run", id: run.id });
    return { ok: true, data: { runId: run.id, dispatched } };
  } catch (err) {
    if (err instanceof AppError && err.code !== "internal")
      return { ok: false, error: describeRunRefusal({ message: err.message, details: err.details }, err.status) };
    logger.error("start run action failed", { err });
    return { ok: false, error: "Could not start the run." };
  }
}
