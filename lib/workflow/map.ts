import type { NodeOf, WorkflowNode } from "./schema";

/**
 * The map node kind (docs/workflow-model.md, "Map"): one body step per item of a list. Isomorphic
 * helpers the engine, validation, editor and dashboards share: the step ids of a map's items, the
 * body as a node an executor runs, and how an items value becomes a list.
 */

import { MAP_MAX_CONCURRENCY } from "./map-limits";

export {
  MAP_DEFAULT_CONCURRENCY,
  MAP_MAX_CONCURRENCY,
  MAP_MAX_ITEMS,
  mapItemErrorModes,
  type MapItemErrorMode,
} from "./map-limits";

/**
 * The node id the item steps of one visit of a map are stored under (Step.nodeId; their iteration is
 * the item's 1-based index): `<mapId>.items` for the first visit, `<mapId>.items.<visit>` for a map
 * re-entered by a loop. A `.` is never part of a node id, so these never clash with a node.
 */
export function mapItemsId(mapId: string, visit: number): string {
  return visit <= 1 ? `${mapId}.items` : `${mapId}.items.${visit}`;
}

const ITEMS_ID = /^([A-Za-z][A-Za-z0-9_-]{0,63})\.items(?:\.([1-9][0-9]*))?$/;

/** The map and visit an item step id belongs to, or null for any other node id. */
export function parseMapItemsId(nodeId: string): { mapId: string; visit: number } | null {
  const m = ITEMS_ID.exec(nodeId);
  if (!m) return null;
  return { mapId: m[1]!, visit: m[2] ? Number(m[2]) : 1 };
}

/** The item concurrency of a map in a run: its own (default 4), at most limits.maxConcurrency. */
export function mapConcurrency(
  node: Pick<NodeOf<"map">, "concurrency">,
  limits: { maxConcurrency?: number | undefined },
): number {
  return Math.max(1, Math.min(node.concurrency, limits.maxConcurrency ?? MAP_MAX_CONCURRENCY));
}

/**
 * The body of a map as the node its item steps run (an agent or tool node under the items' step id):
 * what the executors and the step runner see. The map's timeoutMs bounds each item's step.
 */
export function mapBodyNode(map: NodeOf<"map">, stepId: string): NodeOf<"agent"> | NodeOf<"tool"> {
  const common = {
    id: stepId,
    name: map.name,
    join: "all" as const,
    ...(map.timeoutMs !== undefined ? { timeoutMs: map.timeoutMs } : {}),
  };
  const b = map.body;
  if (b.type === "tool") return { ...common, type: "tool", tool: b.tool, args: b.args, sideEffect: b.sideEffect };
  return {
    ...common,
    type: "agent",
    agent: b.agent,
    task: b.task,
    branches: [{ id: "done", label: "Done", condition: "" }],
    ...(b.maxTurnsPerVisit !== undefined ? { maxTurnsPerVisit: b.maxTurnsPerVisit } : {}),
  };
}

/** The node a step row belongs to: a node of the workflow, or the body of a map for its item steps. */
export function stepNode(workflow: { nodes: readonly WorkflowNode[] }, nodeId: string): WorkflowNode | undefined {
  const own = workflow.nodes.find((n) => n.id === nodeId);
  if (own) return own;
  const items = parseMapItemsId(nodeId);
  if (!items) return undefined;
  const map = workflow.nodes.find((n) => n.id === items.mapId);
  return map?.type === "map" ? mapBodyNode(map, nodeId) : undefined;
}

/**
 * The list an items value stands for: an array as it is; a string holding a JSON array (an agent's
 * answer, also inside a ```json fence); an object with exactly one array field (`{"questions": […]}`).
 * Anything else is no list: the answer says what it was.
 */
export function itemsList(value: unknown): { ok: true; items: unknown[] } | { ok: false; got: string } {
  if (Array.isArray(value)) return { ok: true, items: value };
  if (typeof value === "string") {
    const text = value
      .trim()
      .replace(/^```[A-Za-z]*\s*\n?/, "")
      .replace(/\n?```$/, "")
      .trim();
    if (text.startsWith("[") || text.startsWith("{")) {
      try {
        return itemsList(JSON.parse(text) as unknown);
      } catch {
        return { ok: false, got: "text that is not a JSON list" };
      }
    }
    return { ok: false, got: text === "" ? "an empty value" : "text, not a list" };
  }
  if (value !== null && typeof value === "object") {
    const lists = Object.values(value).filter(Array.isArray);
    if (lists.length === 1) return { ok: true, items: lists[0]! };
    return { ok: false, got: "an object without exactly one list field" };
  }
  return { ok: false, got: value === null || value === undefined ? "an empty value" : `a ${typeof value}` };
}

/** A map's output: its items' results in item order, and the counts. */
export interface MapOutput {
  results: unknown[];
  count: number;
  succeeded: number;
  failed: number;
  /** Items whose step failed (0-based index), with the error: left out of `results` (skip) or in place (collect). */
  errors: { index: number; error: string }[];
}
