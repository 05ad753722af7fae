import * as z from "zod";
import type { Workflow } from "@/lib/workflow/schema";

/**
 * Golden STRUCTURE of a workflow: node kinds and edge shape, ignoring prose and ids. Two workflows
 * match when some one-to-one mapping of nodes preserves kinds, branch counts (agent/router branches,
 * orchestrator workers; where the golden gives them) and every edge (source, target, forward/loop, and the loop cap where the golden gives it).
 */

export const structureSchema = z.object({
  nodes: z.array(z.object({ id: z.string(), kind: z.string(), branches: z.number().int().optional() })),
  edges: z.array(
    z.object({
      from: z.string(),
      to: z.string(),
      loop: z.boolean().optional(),
      maxIterations: z.number().int().optional(),
    }),
  ),
});
export type Structure = z.infer<typeof structureSchema>;

/**
 * Compact golden notation: nodes "id:kind" or "id:kind/branches", edges "a>b" (forward) or "a~b"
 * / "a~b/5" (loop, optional cap), each list separated by spaces.
 */
export function golden(nodes: string, edges: string): Structure {
  const split = (s: string) => s.trim().split(/\s+/).filter(Boolean);
  return {
    nodes: split(nodes).map((t) => {
      const [id, rest = ""] = t.split(":");
      const [kind = "", branches] = rest.split("/");
      return { id: id!, kind, ...(branches ? { branches: Number(branches) } : {}) };
    }),
    edges: split(edges).map((t) => {
      const loop = t.includes("~");
      const [from = "", right = ""] = t.split(loop ? "~" : ">");
      const [to = "", cap] = right.split("/");
      return { from, to, ...(loop ? { loop: true, ...(cap ? { maxIterations: Number(cap) } : {}) } : {}) };
    }),
  };
}

/** The structure of a document (node ids kept, so it can serve as a golden itself). */
export function structureOf(wf: Workflow): Structure {
  return {
    nodes: wf.nodes.map((n) => ({
      id: n.id,
      kind: n.type,
      ...(n.type === "agent" || n.type === "router" || n.type === "human" ? { branches: n.branches.length } : {}),
      ...(n.type === "orchestrator" ? { branches: n.workers.length } : {}),
    })),
    edges: wf.edges.map((e) => ({
      from: e.source,
      to: e.target,
      ...(e.kind === "loop"
        ? { loop: true, ...(e.maxIterations !== undefined ? { maxIterations: e.maxIterations } : {}) }
        : {}),
    })),
  };
}

type EdgeKey = { from: number; to: number; loop: boolean; cap?: number };

function index(s: Structure): { kinds: string[]; branches: (number | undefined)[]; edges: EdgeKey[] } | undefined {
  const pos = new Map(s.nodes.map((n, i) => [n.id, i]));
  const edges: EdgeKey[] = [];
  for (const e of s.edges) {
    const from = pos.get(e.from);
    const to = pos.get(e.to);
    if (from === undefined || to === undefined) return undefined;
    edges.push({ from, to, loop: e.loop ?? false, ...(e.maxIterations !== undefined ? { cap: e.maxIterations } : {}) });
  }
  return { kinds: s.nodes.map((n) => n.kind), branches: s.nodes.map((n) => n.branches), edges };
}

const sameEdge = (g: EdgeKey, a: EdgeKey, map: number[]) =>
  map[g.from] === a.from && map[g.to] === a.to && g.loop === a.loop && (g.cap === undefined || g.cap === a.cap);

/** Every golden edge among mapped nodes has a distinct actual counterpart (and counts agree). */
function consistent(golden: EdgeKey[], actual: EdgeKey[], map: number[], mapped: Set<number>): boolean {
  const relevant = golden.filter((e) => mapped.has(e.from) && mapped.has(e.to));
  const used = new Set<number>();
  for (const g of relevant) {
    const i = actual.findIndex((a, k) => !used.has(k) && sameEdge(g, a, map));
    if (i < 0) return false;
    used.add(i);
  }
  const inverse = new Set([...mapped].map((g) => map[g]));
  const actualAmong = actual.filter((a) => inverse.has(a.from) && inverse.has(a.to)).length;
  return actualAmong === relevant.length;
}

/** Whether `actual` has the golden structure; `why` says what differs when it does not. */
export function matchStructure(golden: Structure, actual: Structure): { match: boolean; why?: string } {
  const g = index(golden);
  const a = index(actual);
  if (!g) return { match: false, why: "golden structure has an edge to an unknown node" };
  if (!a) return { match: false, why: "actual structure has a dangling edge" };
  if (g.kinds.length !== a.kinds.length)
    return { match: false, why: `${a.kinds.length} nodes, expected ${g.kinds.length}` };
  if (g.edges.length !== a.edges.length)
    return { match: false, why: `${a.edges.length} edges, expected ${g.edges.length}` };
  const sorted = (xs: string[]) => [...xs].sort().join(",");
  if (sorted(g.kinds) !== sorted(a.kinds))
    return { match: false, why: `kinds [${sorted(a.kinds)}], expected [${sorted(g.kinds)}]` };
  const map: number[] = [];
  const mapped = new Set<number>();
  const taken = new Set<number>();
  const search = (i: number): boolean => {
    if (i === g.kinds.length) return true;
    for (let c = 0; c < a.kinds.length; c++) {
      if (taken.has(c) || a.kinds[c] !== g.kinds[i]) continue;
      if (g.branches[i] !== undefined && a.branches[c] !== g.branches[i]) continue;
      map[i] = c;
      mapped.add(i);
      taken.add(c);
      if (consistent(g.edges, a.edges, map, mapped) && search(i + 1)) return true;
      mapped.delete(i);
      taken.delete(c);
    }
    return false;
  };
  return search(0)
    ? { match: true }
    : { match: false, why: "same kinds and counts, but no node mapping preserves the edges" };
}
