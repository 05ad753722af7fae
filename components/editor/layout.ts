import type ELKType from "elkjs/lib/elk.bundled.js";
import type { XYPosition } from "@xyflow/react";
import type { Workflow } from "@/lib/workflow/schema";

/**
 * Auto-layout with elkjs: layered, left → right. Loop edges are left out of the layering (they go
 * backwards by definition and the loop edge component draws them as curves back), so the forward
 * graph alone decides the columns. Nodes with no forward edges still get a slot.
 */

/** Size assumed for a node not yet measured by the canvas (default canvas node: 224 × 130). */
export const DEFAULT_NODE_SIZE = { width: 224, height: 130 };

let elk: Promise<InstanceType<typeof ELKType>> | undefined;

/** elkjs is 1.6 MB of compiled code: loaded on the first layout, never with the editor page (B3 load time). */
function loadElk(): Promise<InstanceType<typeof ELKType>> {
  elk ??= import("elkjs/lib/elk.bundled.js").then(
    ({ default: ELK }) => new ELK(),
    (e: unknown) => {
      elk = undefined; // a failed chunk load is retried on the next layout
      throw e;
    },
  );
  return elk;
}

/** Computes a position per node id; `sizes` are the canvas' measured sizes where known. */
export async function layoutDocument(
  doc: Workflow,
  sizes: ReadonlyMap<string, { width: number; height: number }> = new Map(),
): Promise<Map<string, XYPosition>> {
  const ids = new Set(doc.nodes.map((n) => n.id));
  const graph = {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.layered.spacing.nodeNodeBetweenLayers": "90",
      "elk.spacing.nodeNode": "50",
      "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
      "elk.layered.cycleBreaking.strategy": "DEPTH_FIRST",
    },
    children: doc.nodes.map((n) => ({ id: n.id, ...(sizes.get(n.id) ?? DEFAULT_NODE_SIZE) })),
    edges: doc.edges
      .filter((e) => e.kind === "forward" && ids.has(e.source) && ids.has(e.target) && e.source !== e.target)
      .map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
  const result = await (await loadElk()).layout(graph);
  const positions = new Map<string, XYPosition>();
  for (const child of result.children ?? [])
    positions.set(child.id, { x: Math.round(child.x ?? 0), y: Math.round(child.y ?? 0) });
  return positions;
}
