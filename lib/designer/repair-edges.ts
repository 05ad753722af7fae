import { fix, type LocalFix } from "./fixes";
import { normalise, resolveRef, slug, type Candidate } from "./resolve";
import type { DesignEdge, DesignNode } from "./schemas";

/**
 * Edge repairs of the design form: each end resolved to a node by exact, normalised then closest
 * match (a start/end word names the only start/end node), otherwise the edge is dropped; its branch
 * resolved among the source's outcomes — a branching node (agent, router, human) takes a branch it
 * did not declare as a new one, a node with fixed outcomes leaves from its first unused one; exact
 * duplicates dropped; loop edges capped.
 */

const START_WORDS = new Set(["start", "begin", "input", "inputs", "trigger", "entry"]);
const END_WORDS = new Set(["end", "finish", "output", "outputs", "done", "stop", "final", "result"]);

/** The outcomes of a design node, and whether it may take new branches. */
export function designOutcomes(n: DesignNode): { outcomes: string[]; open: boolean } {
  const declared = n.branches?.map((b) => b.id) ?? [];
  switch (n.kind) {
    case "start":
      return { outcomes: ["next"], open: false };
    case "agent":
      return { outcomes: declared.length ? declared : ["done"], open: true };
    case "router":
      return { outcomes: declared, open: true };
    case "human":
      return { outcomes: declared.length ? declared : ["approve", "reject"], open: true };
    case "tool":
      return { outcomes: ["done", "error"], open: false };
    case "orchestrator":
    case "subflow":
    case "map":
      return { outcomes: ["done"], open: false };
    default:
      return { outcomes: [], open: false };
  }
}

/** The node an edge end names (see the module comment). */
function endOf(ref: string, nodes: readonly DesignNode[], candidates: Candidate[]): string | undefined {
  const hit = resolveRef(ref, candidates);
  if (hit) return hit.id;
  const word = normalise(ref);
  const only = (kind: string) => {
    const of = nodes.filter((n) => n.kind === kind);
    return of.length === 1 ? of[0]!.id : undefined;
  };
  if (START_WORDS.has(word)) return only("start");
  if (END_WORDS.has(word)) return only("end");
  return undefined;
}

type State = { nodes: DesignNode[]; fixes: LocalFix[]; used: Map<string, Set<string>> };

/** A node that declared no branches takes the ones its edges use (its default outcome kept if an edge uses it). */
function declare(s: State, source: DesignNode, branch: string): DesignNode {
  const { outcomes } = designOutcomes(source);
  const base = source.branches?.length
    ? source.branches
    : source.kind === "router"
      ? []
      : outcomes.filter((o) => s.used.get(source.id)?.has(o)).map((id) => ({ id }));
  const next = { ...source, branches: [...base, { id: branch }] };
  s.nodes = s.nodes.map((n) => (n === source ? next : n));
  s.fixes.push(
    fix(
      "branch_added",
      `Node "${source.id}" had no branch "${branch}", which an edge leaves from: declared it.`,
      "edge_unknown_handle",
    ),
  );
  return next;
}

/** The branch an edge leaves from, or undefined when the source has no outcomes at all. */
function branchOf(s: State, e: DesignEdge, source: DesignNode): string | undefined {
  const { outcomes, open } = designOutcomes(source);
  const used = s.used.get(source.id) ?? new Set<string>();
  if (e.branch !== undefined && outcomes.includes(e.branch)) return e.branch;
  if (e.branch !== undefined) {
    const hit = resolveRef(
      e.branch,
      outcomes.map((id) => ({ id })),
    );
    if (hit) {
      s.fixes.push(
        fix(
          "reference_resolved",
          `Edge ${e.from} -> ${e.to} leaves from "${e.branch}": read as branch "${hit.id}".`,
          "edge_unknown_handle",
        ),
      );
      return hit.id;
    }
    const id = slug(e.branch, "branch");
    if (outcomes.includes(id)) return id;
    if (open) return (declare(s, source, id), id);
  }
  const free = outcomes.find((o) => !used.has(o) && !(source.kind === "tool" && o === "error")) ?? outcomes[0];
  if (e.branch !== undefined && free !== undefined) {
    s.fixes.push(
      fix(
        "reference_resolved",
        `Edge ${e.from} -> ${e.to} leaves from "${free}" ("${e.branch}" is no outcome of "${e.from}").`,
        "edge_unknown_handle",
      ),
    );
  }
  return free;
}

/** The repaired edges (and nodes, which may have gained branches) of a design; `cap` is the default loop cap. */
export function repairDesignEdges(
  edges: readonly DesignEdge[],
  nodes: DesignNode[],
  cap: number,
  fixes: LocalFix[],
): { edges: DesignEdge[]; nodes: DesignNode[] } {
  const s: State = { nodes, fixes, used: new Map() };
  const candidates = nodes.map((n) => ({ id: n.id, aliases: n.name ? [n.name] : [] }));
  const seen = new Set<string>();
  const out: DesignEdge[] = [];
  for (const e of edges) {
    const from = endOf(e.from, nodes, candidates);
    const to = endOf(e.to, nodes, candidates);
    if (!from || !to) {
      const missing = from ? e.to : e.from;
      fixes.push(
        fix(
          "edge_dropped",
          `Edge ${e.from} -> ${e.to} names "${missing}", which is no node of the design: dropped.`,
          "dangling_edge",
        ),
      );
      continue;
    }
    if (from !== e.from || to !== e.to)
      fixes.push(
        fix("reference_resolved", `Edge ${e.from} -> ${e.to} re-pointed to ${from} -> ${to}.`, "dangling_edge"),
      );
    const source = s.nodes.find((n) => n.id === from)!;
    const branch = branchOf(s, { ...e, from, to }, source);
    if (branch === undefined) {
      fixes.push(
        fix(
          "edge_dropped",
          `Edge ${from} -> ${to} leaves a ${source.kind} node, which has no outcomes: dropped.`,
          "edge_unknown_handle",
        ),
      );
      continue;
    }
    const key = `${from}|${branch}|${to}|${e.loop ? "loop" : "forward"}`;
    if (seen.has(key)) {
      fixes.push(fix("edge_dropped", `Edge ${from} -> ${to} repeats another edge: dropped.`, "duplicate_edge"));
      continue;
    }
    seen.add(key);
    s.used.set(from, new Set([...(s.used.get(from) ?? []), branch]));
    out.push(capped({ ...e, from, to, branch }, cap, fixes));
  }
  return { edges: out, nodes: s.nodes };
}

function capped(e: DesignEdge, cap: number, fixes: LocalFix[]): DesignEdge {
  if (!e.loop) {
    const { maxIterations: _m, onExhausted: _o, ...rest } = e;
    return rest;
  }
  const ok = e.maxIterations !== undefined && e.maxIterations >= 1;
  if (!ok)
    fixes.push(
      fix(
        "loop_capped",
        `Loop edge ${e.from} -> ${e.to} capped at the default ${cap} iterations.`,
        "loop_missing_max_iterations",
      ),
    );
  return { ...e, maxIterations: ok ? e.maxIterations : cap, onExhausted: e.onExhausted ?? "continue" };
}
