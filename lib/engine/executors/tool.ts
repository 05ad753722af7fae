import { effectKey, measured, renderArgs } from "./common";
import { StepError } from "../errors";
import { noUsage, type Executor } from "./types";

/**
 * Tool node: calls one registry tool with templated arguments, no LLM. A side-effecting tool gets
 * the idempotency key `${runId}:${nodeId}:${iteration}` (`:r<n>` on an error-policy retry, see
 * effectKey) so a re-dispatched step cannot repeat the effect. A tool failure fails the try (class
 * `tool_error`); the node's error policy decides what follows (a tool node without one takes its
 * `error` outcome when it is wired, else fails the run).
 */
export const toolExecutor: Executor<"tool"> = (ctx) =>
  measured(ctx, noUsage(), async () => {
    const { node } = ctx;
    const d = await ctx.tools.resolve(node.tool);
    if (!d) throw new StepError(`tool "${node.tool.name}" does not exist or is not approved to run`);
    const args = renderArgs(node.args, ctx.data) as Record<string, unknown>;
    const key = node.sideEffect || d.sideEffect ? effectKey(ctx) : undefined;
    const r = await ctx.tools.call({
      ref: node.tool,
      args,
      runId: ctx.runId,
      nodeId: node.id,
      signal: ctx.signal,
      ...(key ? { idempotencyKey: key } : {}),
    });
    if (r.ok) return { output: r.output, branch: "done" };
    throw new StepError(`tool "${node.tool.name}" failed: ${r.error}`, "tool_error");
  });
