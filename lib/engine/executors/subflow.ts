import { renderTemplateValue } from "@/lib/workflow/template";
import { StepError } from "../errors";
import { noUsage, type Executor } from "./types";

/**
 * Subflow: starts the child run with the node's inputs rendered from this run's data, then waits
 * (no worker holds the step) until that run's end answers the step. A retried attempt of the step
 * (after a crash) gets the child its first attempt started, never a second one (SubflowsPort.start);
 * an error-policy retry (a new try) starts a child of its own.
 */
export const subflowExecutor: Executor<"subflow"> = async (ctx) => {
  const node = ctx.node;
  if (!ctx.subflows) throw new StepError("Subflows cannot run here (no subflow port).");
  if (node.workflowId.trim() === "") throw new StepError("No workflow chosen to run.");
  const started = Date.now();
  const inputs = Object.fromEntries(
    Object.entries(node.inputs).map(([key, template]) => [key, renderTemplateValue(template, ctx.data)]),
  );
  const child = await ctx.subflows.start({
    parentRunId: ctx.runId,
    nodeId: node.id,
    iteration: ctx.iteration,
    ...(ctx.retry > 0 ? { retry: ctx.retry } : {}),
    workflowId: node.workflowId,
    ...(node.version !== undefined ? { version: node.version } : {}),
    inputs,
  });
  return {
    status: "waiting",
    request: {
      kind: "subflow",
      runId: child.runId,
      workflowId: node.workflowId,
      workflowName: child.workflowName,
      ...(node.timeoutMs !== undefined ? { timeoutMs: node.timeoutMs } : {}),
    },
    usage: noUsage(),
    latencyMs: Date.now() - started,
  };
};
