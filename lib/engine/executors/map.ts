import { itemsList, MAP_MAX_ITEMS } from "@/lib/workflow/map";
import { renderTemplateValue } from "@/lib/workflow/template";
import { noUsage, type Executor, type InstantExecutor } from "./types";

/**
 * Map node: its own step only finds the items (no I/O: it runs inside the batch that starts it).
 * The items template is rendered with its type kept (a lone tag), and the value must be a list, a
 * JSON list in text (an agent's answer) or an object with one list field (lib/workflow/map.ts
 * itemsList). The answer `{mapItems}` is not the map's output: the planner starts one step per
 * item and the map's step succeeds with their results when they are done (planner/map.ts).
 */
export const mapOutcome: InstantExecutor<"map"> = (ctx) => {
  const value = renderTemplateValue(ctx.node.items, ctx.data);
  const list = itemsList(value);
  if (!list.ok) {
    return {
      status: "failed",
      error: `the items of map "${ctx.node.id}" are not a list (got ${list.got})`,
      errorClass: "invalid_output",
      usage: noUsage(),
      latencyMs: 0,
    };
  }
  if (list.items.length > MAP_MAX_ITEMS) {
    return {
      status: "failed",
      error: `map "${ctx.node.id}" has ${list.items.length} items; a map takes at most ${MAP_MAX_ITEMS}`,
      errorClass: "invalid_output",
      usage: noUsage(),
      latencyMs: 0,
    };
  }
  return { status: "succeeded", output: { mapItems: list.items }, usage: noUsage(), latencyMs: 0 };
};

export const mapExecutor: Executor<"map"> = async (ctx) => mapOutcome(ctx);
