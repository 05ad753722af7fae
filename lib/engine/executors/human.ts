import { renderTemplate } from "@/lib/workflow/template";
import { noUsage, type Executor, type InstantExecutor } from "./types";

/**
 * Human review: renders the question with the run's data and asks it. The step then waits (no
 * worker holds it) until a person answers; the planner turns the answer into the step's result.
 */
export const humanOutcome: InstantExecutor<"human"> = (ctx) => ({
  status: "waiting",
  request: {
    prompt: renderTemplate(ctx.node.prompt, ctx.data),
    choices: ctx.node.branches.map((b) => ({ id: b.id, label: b.label || b.id })),
    fields: ctx.node.fields.map((f) => ({
      key: f.key,
      type: f.type,
      description: f.description,
      required: f.required,
    })),
    ...(ctx.node.timeoutMs !== undefined
      ? { timeoutMs: ctx.node.timeoutMs, ...(ctx.node.timeoutChoice ? { timeoutChoice: ctx.node.timeoutChoice } : {}) }
      : {}),
  },
  usage: noUsage(),
  latencyMs: 0,
});

/** The registry's (async) form; the driver runs humanOutcome directly (index.ts instantExecutors). */
export const humanExecutor: Executor<"human"> = async (ctx) => humanOutcome(ctx);
