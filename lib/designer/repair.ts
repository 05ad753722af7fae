import { buildGraph, forwardCycles } from "@/lib/workflow/graph";
import { renameNodeInTemplate } from "@/lib/workflow/template";
import type { Workflow } from "@/lib/workflow/schema";
import type { Design, DesignAnswer, DesignEdge, DesignNode } from "./schemas";

/**
 * Deterministic local repairs: the obvious fixes are made here, without a model call, and each is
 * reported (the UI shows them as "repaired"). Only what has no obvious fix goes back to the model.
 */

/** One repair made locally; `code` names what was wrong. */
export type LocalFix = { code: string; message: string };

/** Common names models use for the real kinds. Anything else stays an issue for the model. */
const KIND_SYNONYMS: Record<string, string> = {
  llm: "agent", ai: "agent", worker: "agent", assistant: "agent", task: "agent", evaluator: "agent", critic: "agent",
  aggregator: "agent", writer: "agent", solver: "agent", reviewer: "agent", state: "agent", step: "agent",
  condition: "router", conditional: "router", if: "router", "if-else": "router", switch: "router", branch: "router",
  decision: "router", classifier: "router", route: "router",
  function: "tool", api: "tool", http: "tool", action: "tool",
  supervisor: "orchestrator", manager: "orchestrator", coordinator: "orchestrator",
  workflow: "subflow", subworkflow: "subflow", "sub-workflow": "subflow", sub_workflow: "subflow", child_workflow: "subflow", run_workflow: "subflow",
  begin: "start", input: "start", trigger: "start", entry: "start", on_start: "start",
  finish: "end", output: "end", stop: "end", terminal: "end", final: "end", result: "end",
  fail: "abort", error: "abort", cancel: "abort",
};

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** A valid identifier for `raw` ("Fact checker" → "Fact_checker"). */
export function slug(raw: string): string {
  const s = raw.trim().replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[^A-Za-z]+/, "");
  return (s || "n").slice(0, 64);
}

function unique(base: string, taken: Set<string>): string {
  let id = base;
  for (let i = 2; taken.has(id); i++) id = `${base}_${i}`;
  taken.add(id);
  return id;
}

/** Real kind for `kind` (itself, a known synonym, or undefined). */
export function resolveKind(kind: string, kinds: readonly string[]): string | undefined {
  if (kinds.includes(kind)) return kind;
  const mapped = KIND_SYNONYMS[kind.toLowerCase().trim()];
  return mapped && kinds.includes(mapped) ? mapped : undefined;
}

/** Node-level fixes: kind synonyms, invalid ids, duplicate branch ids (edges re-pointed). */
export function repairNode(node: DesignNode, kinds: readonly string[], edges: DesignEdge[], fixes: LocalFix[]): DesignNode {
  let out = node;
  const kind = resolveKind(node.kind, kinds);
  if (kind && kind !== node.kind) {
    fixes.push({ code: "unknown_node_kind", message: `Node "${node.id}": kind "${node.kind}" read as "${kind}".` });
    out = { ...out, kind };
  }
  if (!out.branches) return out;
  const seen = new Set<string>();
  const branches = out.branches.map((b) => {
    const id = slug(b.id);
    if (!seen.has(id)) return seen.add(id), id === b.id ? b : { ...b, id };
    const renamed = unique(`${id}`, seen);
    const dup = edges.filter((e) => e.from === node.id && e.branch === b.id);
    if (dup.length > 1) dup[dup.length - 1]!.branch = renamed;
    fixes.push({ code: "duplicate_branch_id", message: `Node "${node.id}": second branch "${b.id}" renamed to "${renamed}".` });
    return { ...b, id: renamed };
  });
  return { ...out, branches };
}

/** Fixes an edge end that names no node when exactly one node is an obvious match. */
function resolveEnd(ref: string, ids: string[], nodes: DesignNode[]): string | undefined {
  if (ids.includes(ref)) return ref;
  const byNorm = ids.filter((id) => norm(id) === norm(ref));
  if (byNorm.length === 1) return byNorm[0];
  const word = KIND_SYNONYMS[ref.toLowerCase()] ?? ref.toLowerCase();
  const ofKind = nodes.filter((n) => n.kind === word);
  return (word === "end" || word === "start") && ofKind.length === 1 ? ofKind[0]!.id : undefined;
}

/** Edge-level fixes against the node set: dangling ends with one obvious match, exact duplicates, caps. */
export function repairEdges(edges: DesignEdge[], nodes: DesignNode[], defaultCap: number, fixes: LocalFix[]): DesignEdge[] {
  const ids = nodes.map((n) => n.id);
  const seen = new Set<string>();
  const out: DesignEdge[] = [];
  for (const e of edges) {
    const from = resolveEnd(e.from, ids, nodes);
    const to = resolveEnd(e.to, ids, nodes);
    let edge = { ...e };
    if (from && to && (from !== e.from || to !== e.to)) {
      fixes.push({ code: "dangling_edge", message: `Edge ${e.from} -> ${e.to} re-pointed to ${from} -> ${to}.` });
      edge = { ...edge, from, to };
    }
    const key = `${edge.from}|${edge.branch ?? ""}|${edge.to}`;
    if (seen.has(key)) {
      fixes.push({ code: "duplicate_edge", message: `Duplicate edge ${edge.from} -> ${edge.to} dropped.` });
      continue;
    }
    seen.add(key);
    if (edge.loop && (edge.maxIterations === undefined || edge.maxIterations < 1)) {
      fixes.push({ code: "loop_without_cap", message: `Loop edge ${edge.from} -> ${edge.to} capped at the default ${defaultCap} iterations.` });
      edge = { ...edge, maxIterations: defaultCap };
    }
    if (edge.loop && !edge.onExhausted) edge = { ...edge, onExhausted: "continue" };
    out.push(edge);
  }
  return out;
}

/** Branches named by edges of a node that declared none are declared (the model forgot the list). */
function declareUsedBranches(nodes: DesignNode[], edges: DesignEdge[], fixes: LocalFix[]): DesignNode[] {
  return nodes.map((n) => {
    if ((n.kind !== "agent" && n.kind !== "router") || n.branches?.length) return n;
    const used = [...new Set(edges.filter((e) => e.from === n.id && e.branch).map((e) => e.branch!))];
    if (used.length < 2) return n;
    fixes.push({ code: "undeclared_branch", message: `Node "${n.id}": branches ${used.join(", ")} declared from its edges.` });
    return { ...n, branches: used.map((id) => ({ id })) };
  });
}

/** The loop cap used when a model omits one: a numeric `max_iterations` variable, else 3. */
export function defaultCapOf(design: Pick<Design, "variables">, fallback = 3): number {
  const v = design.variables?.find((x) => /^max_?iterations$/i.test(x.key))?.value;
  return typeof v === "number" && v >= 1 ? v : fallback;
}

/** Invalid node ids and agent keys become identifiers; edges, templates and agent references follow. */
function slugIds(answer: DesignAnswer, fixes: LocalFix[]): DesignAnswer {
  const nodeIds = new Map<string, string>();
  const taken = new Set<string>();
  for (const n of answer.design.nodes) {
    const id = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(n.id) ? n.id : unique(slug(n.id), taken);
    taken.add(id);
    if (id !== n.id) nodeIds.set(n.id, id);
  }
  const keys = new Map(answer.profile.agents.filter((a) => slug(a.key) !== a.key).map((a) => [a.key, slug(a.key)]));
  if (nodeIds.size === 0 && keys.size === 0) return answer;
  for (const [from, to] of [...nodeIds, ...keys]) fixes.push({ code: "invalid_id", message: `Id "${from}" is not an identifier: renamed to "${to}".` });
  const node = (id: string) => nodeIds.get(id) ?? id;
  const key = (k: string | undefined) => (k === undefined ? k : (keys.get(k) ?? k));
  const text = (t: string | undefined) => (t === undefined ? t : [...nodeIds].reduce((acc, [from, to]) => renameNodeInTemplate(acc, from, to), t));
  const templates = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, text(v)!]));
  // tool and subflow args hold templates in their string values (a subflow's `args.inputs`)
  const inArgs = (v: unknown): unknown =>
    typeof v === "string" ? text(v) : Array.isArray(v) ? v.map(inArgs) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, inArgs(x)])) : v;
  return {
    profile: { ...answer.profile, agents: answer.profile.agents.map((a) => ({ ...a, key: key(a.key)! })) },
    design: {
      ...answer.design,
      nodes: answer.design.nodes.map((n) => ({ ...n, id: node(n.id), agent: key(n.agent), task: text(n.task), prompt: text(n.prompt), workers: n.workers?.map((w) => key(w)!), ...(n.outputs ? { outputs: templates(n.outputs) } : {}), ...(n.args ? { args: inArgs(n.args) as Record<string, unknown> } : {}) })),
      edges: answer.design.edges.map((e) => ({ ...e, from: node(e.from), to: node(e.to) })),
    },
  };
}

/** All local repairs of a new-workflow answer; returns the repaired answer and what was fixed. */
export function repairAnswer(input: DesignAnswer, kinds: readonly string[]): { answer: DesignAnswer; fixes: LocalFix[] } {
  const fixes: LocalFix[] = [];
  const answer = slugIds(input, fixes);
  const cap = defaultCapOf(answer.design);
  const edges = answer.design.edges.map((e) => ({ ...e }));
  let nodes = answer.design.nodes.map((n) => repairNode(n, kinds, edges, fixes));
  nodes = declareUsedBranches(nodes, edges, fixes);
  const design: Design = { ...answer.design, nodes, edges: repairEdges(edges, nodes, cap, fixes) };
  const agents = [...answer.profile.agents];
  const keys = new Set(agents.map((a) => a.key));
  for (const n of nodes) {
    for (const key of [n.agent, ...(n.workers ?? [])]) {
      if (!key || keys.has(key) || (n.kind !== "agent" && n.kind !== "orchestrator")) continue;
      const match = agents.find((a) => norm(a.key) === norm(key));
      if (match) continue;
      keys.add(key);
      agents.push({ key, role: n.name || key, instructions: n.task ?? "" });
      fixes.push({ code: "unknown_agent", message: `Agent "${key}" used by node "${n.id}" was not declared: declared it from the node.` });
    }
  }
  return { answer: { profile: { ...answer.profile, agents }, design }, fixes };
}

/** Forward edges that close a cycle become loop edges with the default cap (lib/workflow finds them). */
function loopBackEdges(wf: Workflow, fixes: LocalFix[]): Workflow {
  const back = new Set(forwardCycles(buildGraph(wf)).map((c) => c.edge.id));
  if (back.size === 0) return wf;
  const cap = wf.limits.maxIterationsPerLoop;
  const edges = wf.edges.map((e) => {
    if (!back.has(e.id)) return e;
    fixes.push({ code: "forward_cycle", message: `Edge ${e.source} -> ${e.target} closes a cycle: made a loop edge capped at ${cap}.` });
    return { ...e, kind: "loop" as const, maxIterations: e.maxIterations ?? cap, onExhausted: e.onExhausted ?? ("continue" as const) };
  });
  return { ...wf, edges };
}

/** End nodes that write nothing write every declared output from their (first) predecessor. */
function fillEndOutputs(wf: Workflow, fixes: LocalFix[]): Workflow {
  if (wf.outputs.length === 0) return wf;
  const nodes = wf.nodes.map((n) => {
    if (n.type !== "end" || Object.keys(n.outputs).length > 0) return n;
    const pred = wf.edges.find((e) => e.target === n.id && e.kind === "forward")?.source;
    const source = wf.nodes.find((x) => x.id === pred);
    if (!source || source.type === "start") return n;
    fixes.push({ code: "output_not_written", message: `End "${n.id}" writes ${wf.outputs.map((o) => o.key).join(", ")} from "${source.id}".` });
    return { ...n, outputs: Object.fromEntries(wf.outputs.map((o) => [o.key, `{{nodes.${source.id}.output}}`])) };
  });
  return { ...wf, nodes };
}

/** Document-level fixes shared by new designs and edits: cycles, loop caps, unwritten outputs. */
export function repairDocument(input: Workflow, fixes: LocalFix[]): Workflow {
  const wf = fillEndOutputs(loopBackEdges(input, fixes), fixes);
  const cap = wf.limits.maxIterationsPerLoop;
  const edges = wf.edges.map((e) => {
    if (e.kind !== "loop" || (e.maxIterations !== undefined && e.maxIterations >= 1 && e.onExhausted)) return e;
    if (e.maxIterations === undefined || e.maxIterations < 1) {
      fixes.push({ code: "loop_without_cap", message: `Loop edge ${e.source} -> ${e.target} capped at the default ${cap} iterations.` });
    }
    return { ...e, maxIterations: e.maxIterations !== undefined && e.maxIterations >= 1 ? e.maxIterations : cap, onExhausted: e.onExhausted ?? "continue" };
  });
  return { ...wf, edges };
}
