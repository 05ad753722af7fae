import "server-only";
import * as z from "zod";

/** Why a run job was enqueued; shown in logs and used by tests, never trusted for control flow. */
export const runJobReasons = ["start", "resume", "cancel", "reconcile", "retry"] as const;
export type RunJobReason = (typeof runJobReasons)[number];

/** Data of a job on the runs queue. Parsed in the worker before anything else (house rule 2). */
export const runJobSchema = z.object({
  runId: z.string().min(1).max(64),
  reason: z.enum(runJobReasons).default("start"),
  enqueuedAt: z.number().int().nonnegative(),
});
export type RunJobData = z.infer<typeof runJobSchema>;
