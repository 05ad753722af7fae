import "server-only";
import type { Queue } from "bullmq";
import * as z from "zod";
import { withRedisDeadline } from "./connection";
import { closeProducerQueue, producerQueue } from "./producer";

/**
 * The queue of experiments (lib/evals): one long job per experiment, which starts its runs a few at
 * a time and scores them. A queue of its own, so an experiment's bookkeeping never takes a slot of
 * the runs queue; its runs go on the runs queue at EXPERIMENT_RUN_PRIORITY.
 */
export const EXPERIMENTS_QUEUE = "experiments";

/**
 * BullMQ priority of an experiment's run jobs: jobs without a priority (every interactive, API,
 * schedule or webhook start) are taken before any prioritised job, so a backlog of experiment runs
 * never delays them.
 */
export const EXPERIMENT_RUN_PRIORITY = 10;

/** The BullMQ priority of every job of a run started by `trigger` (its start and each resume alike). */
export const runPriority = (trigger: string): number | undefined =>
  trigger === "experiment" ? EXPERIMENT_RUN_PRIORITY : undefined;

export const experimentJobSchema = z.object({ experimentId: z.string().min(1).max(64) });
export type ExperimentJobData = z.infer<typeof experimentJobSchema>;

export const experimentsQueue = (): Queue<ExperimentJobData> => producerQueue<ExperimentJobData>(EXPERIMENTS_QUEUE);

export const closeExperimentsQueue = (): Promise<void> => closeProducerQueue(EXPERIMENTS_QUEUE);

/**
 * Dispatches an experiment (idempotent: the job id is the experiment's, so a second add while its
 * job waits or runs is a no-op; finished jobs are removed, so the worker's sweep can add it again
 * after a lost job). AppError("unavailable") when Redis is down; the sweep dispatches it later.
 */
export async function enqueueExperiment(experimentId: string): Promise<void> {
  await withRedisDeadline(
    "enqueue experiment",
    experimentsQueue().add(
      "experiment",
      { experimentId },
      {
        jobId: `experiment-${experimentId}`,
        attempts: 5,
        backoff: { type: "exponential", delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    ),
  );
}
