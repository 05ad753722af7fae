import "server-only";
import { z } from "zod";

/** Why a run job was enqueued; shown in logs and used by tests, never trusted for control flow. */
export const runJobReasons = ["start", "resume", "cancel", "reconcile", "retry"] as const;
export type RunJobReason = (typeof runJobReasons)[number];

/** Data of a job on the runs queue. Parsed in the worker before anything else (house rule 2). */
export const runJobSchema = z.object({
  runId: z.string().min(1).max(64),
  reason: z.enum(runJobReasons).default("start"),
  enqueuedAt: z.number().int().nonnegative(),
  /**
   * What the start request wrote for a new run (its saved version and inputs): the worker may then
   * claim it together with its first commit, which checks both against the row (a mismatch changes
   * nothing: the run is claimed as usual). Absent on other jobs and when the inputs are large.
   */
  fresh: z.object({
    versionId: z.string().min(1).max(64),
    inputs: z.record(z.string(), z.unknown()),
    /** The run is a subflow's child (its end answers its parent's step); absent: it has no parent. */
    child: z.literal(true).optional(),
  }).optional(),
});
export type RunJobData = z.infer<typeof runJobSchema>;
