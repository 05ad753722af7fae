import { renderTemplate, renderTemplateValue } from "@/lib/workflow/template";
import { noUsage, type Executor, type InstantExecutor } from "./types";

/** Start node: exposes the run's inputs as its output. */
export const startOutcome: InstantExecutor<"start"> = (ctx) => ({
  status: "succeeded",
  output: ctx.data.inputs ?? {},
  branch: "next",
  usage: noUsage(),
  latencyMs: 0,
});

/** End node: renders the run's outputs (key → template; a lone tag keeps the value's type). */
export const endOutcome: InstantExecutor<"end"> = (ctx) => ({
  status: "succeeded",
  output: Object.fromEntries(Object.entries(ctx.node.outputs).map(([k, t]) => [k, renderTemplateValue(t, ctx.data)])),
  usage: noUsage(),
  latencyMs: 0,
});

/** Abort node: renders the reason the run is aborted with. */
export const abortOutcome: InstantExecutor<"abort"> = (ctx) => ({
  status: "succeeded",
  output: { reason: renderTemplate(ctx.node.reason, ctx.data) || "Aborted" },
  usage: noUsage(),
  latencyMs: 0,
});

/** The registry's (async) forms; the driver runs the instant ones directly (index.ts instantExecutors). */
export const startExecutor: Executor<"start"> = async (ctx) => startOutcome(ctx);
export const endExecutor: Executor<"end"> = async (ctx) => endOutcome(ctx);
export const abortExecutor: Executor<"abort"> = async (ctx) => abortOutcome(ctx);
