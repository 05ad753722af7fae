import * as z from "zod";

/** A seeded run's reusable step results (Run.seed); how they are reused is in ./reuse. */

export const reusedStepSchema = z.object({
  output: z.unknown(),
  branch: z.string().nullable().default(null),
  /** The step's input in the run it comes from (Step.input). */
  input: z.unknown().optional(),
  /** A fork's edit: the value to use instead of the recorded one. */
  edited: z.boolean().optional(),
});
export type ReusedStep = z.infer<typeof reusedStepSchema>;

/** What a run may reuse (Run.seed): results by `${nodeId}#${iteration}`, from the run `runId`. */
export const runSeedSchema = z.object({
  runId: z.string().min(1),
  steps: z.record(z.string(), reusedStepSchema),
});
export type RunSeed = z.infer<typeof runSeedSchema>;
