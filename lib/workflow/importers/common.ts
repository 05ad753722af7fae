import { buildGraph, topologicalOrder } from "../graph";
import type { Workflow } from "../schema";

/** A problem found while importing a seed format; `line` is set for XML sources. */
export type ImportIssue = { code: string; severity: "error" | "warning"; message: string; line?: number };

/**
 * An import either yields a workflow (possibly with warnings) or fails with errors; when the format
 * was readable but semantically wrong, the best-effort workflow is still returned for inspection.
 */
export type ImportResult =
  { ok: true; workflow: Workflow; issues: ImportIssue[] } | { ok: false; issues: ImportIssue[]; workflow?: Workflow };

/** Wraps a built workflow and the issues found: ok unless an error-level issue exists. */
export function result(workflow: Workflow, issues: ImportIssue[]): ImportResult {
  return issues.some((i) => i.severity === "error") ? { ok: false, issues, workflow } : { ok: true, workflow, issues };
}

/** Turns a free name into an identifier (letters, digits, _), unique among `taken` (which it extends). */
export function uniqueId(name: string, taken: Set<string>, fallback = "node"): string {
  let base = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 56);
  if (!/^[a-z]/.test(base)) base = `${fallback}_${base}`.replace(/_+$/, "");
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/** Lays nodes out left to right by forward depth (one column per layer, rows within a layer). */
export function layout(doc: Workflow): Workflow {
  const graph = buildGraph(doc);
  const depth = new Map<string, number>();
  for (const id of topologicalOrder(graph).order) {
    const preds = (graph.forwardIn.get(id) ?? []).map((e) => depth.get(e.source) ?? 0);
    depth.set(id, preds.length === 0 ? 0 : Math.max(...preds) + 1);
  }
  const rows = new Map<number, number>();
  const nodes = doc.nodes.map((node) => {
    const col = depth.get(node.id) ?? 0;
    const row = rows.get(col) ?? 0;
    rows.set(col, row + 1);
    return { ...node, position: { x: col * 280, y: row * 160 } };
  });
  return { ...doc, nodes };
}

/** Parses a numeric string as a positive integer, or undefined. */
export function positiveInt(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : NaN;
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}
