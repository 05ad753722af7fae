import { measured, renderArgs } from "./common";
import { StepError } from "../errors";
import { noUsage, type Executor } from "./types";

/**
 * Tool node: calls one registry tool with templated arguments, no LLM. A side-effecting tool gets
 * the idempotency key `${runId}:${nodeId}:${iteration}` so a re-dispatched step cannot repeat the
 * effect. A tool failure follows the `error` outcome when it is wired, else fails the step.
 */
export const toolExecutor: Executor<"tool"> = (ctx) =>
  measured(ctx, noUsage(), async () => {
    const { node } = ctx;
    const d = await ctx.tools.resolve(node.tool);
    if (!d) throw new StepError(`tool "${node.tool.name}" does not exist or is not approved to run`);
    const args = renderArgs(node.args, ctx.data) as Record<string, unknown>;
    const key = node.sideEffect || d.sideEffect ? `${ctx.runId}:${node.id}:${ctx.iteration}` : undefined;
    const r = await ctx.tools.call({ ref: node.tool, args, runId: ctx.runId, nodeId: node.id, signal: ctx.signal, ...(key ? { idempotencyKey: key } : {}) });
    if (r.ok) return { output: r.output, branch: "done" };
    const errorWired = ctx.workflow.edges.some((e) => e.source === node.id && e.sourceHandle === "error");
    if (errorWired) return { output: { error: r.error }, branch: "error" };
    throw new StepError(`tool "${node.tool.name}" failed: ${r.error}`);
  });
