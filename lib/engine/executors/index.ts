import { agentExecutor } from "./agent";
import { humanExecutor, humanOutcome } from "./human";
import { mapExecutor, mapOutcome } from "./map";
import { orchestratorExecutor } from "./orchestrator";
import { routerExecutor } from "./router";
import { subflowExecutor } from "./subflow";
import { abortExecutor, abortOutcome, endExecutor, endOutcome, startExecutor, startOutcome } from "./terminal";
import { toolExecutor } from "./tool";
import type { ExecutorRegistry, InstantExecutor, InstantKind } from "./types";

export type { Executor, ExecutorRegistry, InstantExecutor, InstantKind, StepContext, StepOutcome } from "./types";
export { handoffToolName } from "./orchestrator";
export { BRANCH_FORMAT_RETRIES, branchChoiceSchema } from "./branch";

/** One executor per node kind (typed Record<NodeKind, …>: a half-added kind fails to compile). */
export const defaultExecutors: ExecutorRegistry = {
  start: startExecutor,
  agent: agentExecutor,
  router: routerExecutor,
  tool: toolExecutor,
  orchestrator: orchestratorExecutor,
  human: humanExecutor,
  subflow: subflowExecutor,
  map: mapExecutor,
  end: endExecutor,
  abort: abortExecutor,
};

/**
 * The default executors of the kinds that do no I/O, as plain functions: the driver runs a step of
 * one of these kinds (when the registry holds its default executor) inside the batch that starts it.
 */
export const instantExecutors: { [K in InstantKind]: InstantExecutor<K> } = {
  start: startOutcome,
  end: endOutcome,
  abort: abortOutcome,
  human: humanOutcome,
  map: mapOutcome,
};
