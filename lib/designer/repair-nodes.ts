import type { NodeKind } from "@/lib/workflow/schema";
import { fix, type LocalFix } from "./fixes";
import { nameSimilarity, slug, uniqueId } from "./resolve";
import type { DesignEdge, DesignNode } from "./schemas";
import { designFieldsOf } from "./wire";

/**
 * Node-level repairs of the design form: the kind (a real kind, a known synonym, the kind whose
 * fields the node has, a kind spelt nearly alike, else agent), fields that do not apply to that kind
 * dropped (or moved where the meaning is plain: a router's `task` is its prompt), a tool node without
 * a tool named after the node, branch ids made identifiers and unique (a duplicate's edge follows).
 */

/** Names models use for the real kinds (used when the fields do not decide). */
const KIND_SYNONYMS: Record<string, NodeKind> = {
  llm: "agent",
  ai: "agent",
  worker: "agent",
  assistant: "agent",
  task: "agent",
  evaluator: "agent",
  critic: "agent",
  aggregator: "agent",
  writer: "agent",
  solver: "agent",
  reviewer: "agent",
  state: "agent",
  step: "agent",
  condition: "router",
  conditional: "router",
  if: "router",
  ifelse: "router",
  switch: "router",
  branch: "router",
  decision: "router",
  classifier: "router",
  route: "router",
  function: "tool",
  api: "tool",
  http: "tool",
  action: "tool",
  supervisor: "orchestrator",
  manager: "orchestrator",
  coordinator: "orchestrator",
  approval: "human",
  humanapproval: "human",
  humaninput: "human",
  humanreview: "human",
  review: "human",
  manual: "human",
  workflow: "subflow",
  subworkflow: "subflow",
  childworkflow: "subflow",
  runworkflow: "subflow",
  begin: "start",
  input: "start",
  trigger: "start",
  entry: "start",
  onstart: "start",
  finish: "end",
  output: "end",
  stop: "end",
  terminal: "end",
  final: "end",
  result: "end",
  fail: "abort",
  failure: "abort",
  error: "abort",
  cancel: "abort",
};

/** Fields that say nothing about the kind. */
const COMMON = new Set(["id", "kind", "name", "join"]);

/** The design fields set on a node (non-empty values only). */
function present(node: DesignNode): string[] {
  return Object.entries(node)
    .filter(([k, v]) => !COMMON.has(k) && v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0))
    .map(([k]) => k);
}

/** The kind a word names: itself, a synonym, or a kind spelt nearly alike. */
function kindByName(word: string, kinds: readonly string[]): string | undefined {
  const w = word.toLowerCase().replace(/[^a-z]/g, "");
  if (kinds.includes(w)) return w;
  const synonym = KIND_SYNONYMS[w];
  if (synonym && kinds.includes(synonym)) return synonym;
  return kinds.find((k) => w.length >= 3 && nameSimilarity(w, k) >= 0.75);
}

/** The kind whose fields the node has most of; ties go to the kind its name suggests, then catalogue order. */
function kindByFields(node: DesignNode, kinds: readonly string[]): string | undefined {
  const fields = present(node);
  if (fields.length === 0) return undefined;
  const scored = kinds.map((k) => ({ k, n: fields.filter((f) => designFieldsOf(k as NodeKind).includes(f)).length }));
  const best = Math.max(...scored.map((s) => s.n));
  if (best === 0) return undefined;
  const top = scored.filter((s) => s.n === best).map((s) => s.k);
  const named = kindByName(node.kind, top);
  return named ?? top[0];
}

/** A real kind for `node` (see the module comment). */
export function resolveKind(node: DesignNode, kinds: readonly string[]): string {
  if (kinds.includes(node.kind)) return node.kind;
  return kindByFields(node, kinds) ?? kindByName(node.kind, kinds) ?? "agent";
}

/** Fields whose meaning carries over to the resolved kind. */
const MOVES: [from: keyof DesignNode, to: keyof DesignNode][] = [
  ["task", "prompt"],
  ["prompt", "task"],
  ["task", "reason"],
];

function fitFields(node: DesignNode, fixes: LocalFix[]): DesignNode {
  const allowed = designFieldsOf(node.kind as NodeKind);
  const out: Record<string, unknown> = { ...node };
  if (node.kind === "subflow" && node.args) {
    const { workflowId, inputs, version } = node.args as { workflowId?: unknown; inputs?: unknown; version?: unknown };
    if (typeof workflowId === "string") out.workflowId = workflowId;
    if (inputs && typeof inputs === "object" && !Array.isArray(inputs)) {
      out.inputs = Object.fromEntries(
        Object.entries(inputs).filter((e): e is [string, string] => typeof e[1] === "string"),
      );
    }
    if (typeof version === "number") out.version = version;
    delete out.args;
    fixes.push(
      fix("field_moved", `Subflow "${node.id}": its args are its workflowId and inputs.`, "field_not_applicable"),
    );
  }
  for (const [from, to] of MOVES) {
    if (out[from] !== undefined && !allowed.includes(from) && allowed.includes(to) && !out[to]) {
      out[to] = out[from];
      delete out[from];
      fixes.push(
        fix("field_moved", `Node "${node.id}" (${node.kind}): its ${from} is its ${to}.`, "field_not_applicable"),
      );
    }
  }
  const dropped = present(out as DesignNode).filter((k) => !allowed.includes(k) && k !== "version");
  for (const k of dropped) delete out[k];
  if (dropped.length)
    fixes.push(
      fix(
        "field_dropped",
        `Node "${node.id}" (${node.kind}): dropped ${dropped.join(", ")}, which a ${node.kind} node does not have.`,
        "field_not_applicable",
      ),
    );
  return out as DesignNode;
}

/** Branch ids made identifiers and unique; the edge of a duplicate follows its new id. */
function fitBranches(node: DesignNode, edges: DesignEdge[], fixes: LocalFix[]): DesignNode {
  if (!node.branches) return node;
  const seen = new Set<string>();
  const branches = node.branches.map((b) => {
    const base = slug(b.id, "branch");
    if (!seen.has(base)) {
      seen.add(base);
      if (base === b.id) return b;
      fixes.push(fix("id_renamed", `Node "${node.id}": branch "${b.id}" renamed to "${base}".`, "invalid_id"));
      for (const e of edges) if (e.from === node.id && e.branch === b.id) e.branch = base;
      return { ...b, id: base };
    }
    const renamed = uniqueId(base, seen);
    const dup = edges.filter((e) => e.from === node.id && (e.branch === b.id || e.branch === base));
    if (dup.length > 1) dup[dup.length - 1]!.branch = renamed;
    fixes.push(
      fix("id_renamed", `Node "${node.id}": second branch "${b.id}" renamed to "${renamed}".`, "duplicate_branch_id"),
    );
    return { ...b, id: renamed };
  });
  return { ...node, branches };
}

/** Kind, fields and branches of one node; `edges` (mutated) follow renamed branches. */
export function repairNode(
  node: DesignNode,
  kinds: readonly string[],
  edges: DesignEdge[],
  fixes: LocalFix[],
): DesignNode {
  const kind = resolveKind(node, kinds);
  let out = node;
  if (kind !== node.kind) {
    const why = kinds.includes(kind) && kindByFields(node, kinds) === kind ? "by the fields it has" : "by its name";
    fixes.push(
      fix(
        "kind_mapped",
        `Node "${node.id}": kind "${node.kind}" read as "${kind}" (${node.kind ? why : "it had none"}).`,
        "unknown_node_kind",
      ),
    );
    out = { ...out, kind };
  }
  out = fitFields(out, fixes);
  if (out.kind === "tool" && !out.tool?.trim()) {
    const tool = slug(out.name || out.id, "tool").toLowerCase();
    fixes.push(
      fix("reference_resolved", `Tool node "${out.id}" named no tool: it uses "${tool}" (to create).`, "unknown_tool"),
    );
    out = { ...out, tool };
  }
  return fitBranches(out, edges, fixes);
}
