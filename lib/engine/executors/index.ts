import { agentExecutor } from "./agent";
import { humanExecutor } from "./human";
import { orchestratorExecutor } from "./orchestrator";
import { routerExecutor } from "./router";
import { subflowExecutor } from "./subflow";
import { abortExecutor, endExecutor, startExecutor } from "./terminal";
import { toolExecutor } from "./tool";
import type { ExecutorRegistry } from "./types";

export type { Executor, ExecutorRegistry, StepContext, StepOutcome } from "./types";
export { StepError, StepLimitError } from "./common";
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
  end: endExecutor,
  abort: abortExecutor,
};
