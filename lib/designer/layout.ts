import { buildGraph, topologicalOrder } from "@/lib/workflow/graph";
import type { Workflow } from "@/lib/workflow/schema";

/**
 * Layout of a proposal. The positioning function is pluggable (the editor passes its elkjs layout,
 * same signature); the default is a pure layered layout, left → right, loop edges ignored. Whatever
 * computes the positions, nodes that already had a place keep it: only new nodes move.
 */

export type Position = { x: number; y: number };

/** Computes a position per node id (e.g. components/editor/layout.ts `layoutDocument`). */
export type LayoutFn = (doc: Workflow) => Promise<Map<string, Position>> | Map<string, Position>;

/** Column and row pitch of the default layout (canvas node 224 × 130 plus gaps). */
export const PITCH = { x: 314, y: 180 };

/** Pure layered layout: column = longest forward path from a root, rows in document order. */
export const layeredLayout: LayoutFn = (doc) => {
  const graph = buildGraph(doc);
  const { order, cyclic } = topologicalOrder(graph);
  const layer = new Map<string, number>();
  for (const id of [...order, ...cyclic]) {
    const preds = (graph.forwardIn.get(id) ?? [])
      .map((e) => layer.get(e.source))
      .filter((l): l is number => l !== undefined);
    layer.set(id, preds.length ? Math.max(...preds) + 1 : 0);
  }
  const rows = new Map<number, number>();
  const positions = new Map<string, Position>();
  for (const node of doc.nodes) {
    const l = layer.get(node.id) ?? 0;
    const row = rows.get(l) ?? 0;
    rows.set(l, row + 1);
    positions.set(node.id, { x: l * PITCH.x, y: row * PITCH.y });
  }
  return positions;
};

const overlaps = (a: Position, b: Position) =>
  Math.abs(a.x - b.x) < PITCH.x * 0.7 && Math.abs(a.y - b.y) < PITCH.y * 0.7;

/**
 * Positions every node: nodes listed in `keep` with a position retain it; the others take the
 * computed position, shifted by the median offset of the kept ones (so they land near their
 * neighbours) and nudged down until they overlap nothing.
 */
export async function placeNodes(
  doc: Workflow,
  keep: ReadonlySet<string>,
  layout: LayoutFn = layeredLayout,
): Promise<Workflow> {
  const computed = await layout(doc);
  const kept = doc.nodes.filter((n) => keep.has(n.id) && n.position && computed.has(n.id));
  const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : 0);
  const dx = median(kept.map((n) => n.position!.x - computed.get(n.id)!.x));
  const dy = median(kept.map((n) => n.position!.y - computed.get(n.id)!.y));
  const placed: Position[] = kept.map((n) => n.position!);
  const nodes = doc.nodes.map((n) => {
    if (keep.has(n.id) && n.position) return n;
    const c = computed.get(n.id) ?? { x: 0, y: 0 };
    const position = { x: c.x + dx, y: c.y + dy };
    while (placed.some((p) => overlaps(p, position))) position.y += PITCH.y;
    placed.push(position);
    return { ...n, position };
  });
  return { ...doc, nodes };
}
