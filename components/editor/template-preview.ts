import type { Workflow } from "@/lib/workflow/schema";

/** A node's box and an edge's endpoints in a thumbnail's own coordinates (0..width, 0..height). */
export type PreviewGeometry = {
  width: number;
  height: number;
  nodes: { id: string; type: string; x: number; y: number }[];
  edges: { id: string; loop: boolean; x1: number; y1: number; x2: number; y2: number }[];
};

const COL = 60;
const ROW = 34;

/** Column per node: longest forward path from the start (loop edges ignored); unreachable nodes go last. */
function columns(doc: Workflow): Map<string, number> {
  const col = new Map<string, number>();
  const start = doc.nodes.find((n) => n.type === "start");
  if (start) col.set(start.id, 0);
  for (let pass = 0; pass < doc.nodes.length; pass++) {
    let changed = false;
    for (const e of doc.edges) {
      const c = col.get(e.source);
      if (e.kind !== "forward" || c === undefined || (col.get(e.target) ?? -1) >= c + 1) continue;
      col.set(e.target, c + 1);
      changed = true;
    }
    if (!changed) break;
  }
  const last = Math.max(0, ...col.values()) + 1;
  for (const n of doc.nodes) if (!col.has(n.id)) col.set(n.id, last);
  return col;
}

/**
 * Thumbnail geometry of a workflow (template gallery, version previews): nodes in layered columns
 * left → right, rows in document order within a column. Pure and synchronous (no elk needed).
 */
export function previewGeometry(doc: Workflow): PreviewGeometry {
  const col = columns(doc);
  const rowsUsed = new Map<number, number>();
  const pos = new Map<string, { x: number; y: number }>();
  for (const n of doc.nodes) {
    const c = col.get(n.id) ?? 0;
    const r = rowsUsed.get(c) ?? 0;
    rowsUsed.set(c, r + 1);
    pos.set(n.id, { x: 12 + c * COL, y: 12 + r * ROW });
  }
  const nodes = doc.nodes.map((n) => ({ id: n.id, type: n.type, ...(pos.get(n.id) ?? { x: 0, y: 0 }) }));
  const edges = doc.edges.flatMap((e) => {
    const a = pos.get(e.source),
      b = pos.get(e.target);
    return a && b ? [{ id: e.id, loop: e.kind === "loop", x1: a.x + 36, y1: a.y + 9, x2: b.x, y2: b.y + 9 }] : [];
  });
  const width = Math.max(...nodes.map((n) => n.x + 48), 60);
  const height = Math.max(...nodes.map((n) => n.y + 30), 40);
  return { width, height, nodes, edges };
}
