import { renderTemplate, renderTemplateValue } from "@/lib/workflow/template";
import { noUsage, type Executor } from "./types";

/** Start node: exposes the run's inputs as its output. */
export const startExecutor: Executor<"start"> = async (ctx) => ({
  status: "succeeded",
  output: ctx.data.inputs ?? {},
  branch: "next",
  usage: noUsage(),
  latencyMs: 0,
});

/** End node: renders the run's outputs (key → template; a lone tag keeps the value's type). */
export const endExecutor: Executor<"end"> = async (ctx) => ({
  status: "succeeded",
  output: Object.fromEntries(Object.entries(ctx.node.outputs).map(([k, t]) => [k, renderTemplateValue(t, ctx.data)])),
  usage: noUsage(),
  latencyMs: 0,
});

/** Abort node: renders the reason the run is aborted with. */
export const abortExecutor: Executor<"abort"> = async (ctx) => ({
  status: "succeeded",
  output: { reason: renderTemplate(ctx.node.reason, ctx.data) || "Aborted" },
  usage: noUsage(),
  latencyMs: 0,
});
