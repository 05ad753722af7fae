import "server-only";

/**
 * The run engine (docs/architecture.md, "The planner and the driver"): a pure planner, a driver that
 * applies its commands through injected ports, and one executor per node kind. Real ports are wired
 * in workers/ and `runJob` is called from the run job; browser code imports only `@/lib/engine/events`.
 */
export { runJob, structuralCheck, type DriverOutcome, type RunJobOptions } from "./driver";
export * from "./errors";
export {
  plan,
  parsePlannerState,
  type PlannerCommand,
  type PlannerEvent,
  type PlannerState,
  type PlanResult,
} from "./planner";
export {
  defaultExecutors,
  type Executor,
  type ExecutorRegistry,
  type StepContext,
  type StepOutcome,
} from "./executors";
export { systemClock } from "./clock";
export * from "./ports";
export * from "./events";
