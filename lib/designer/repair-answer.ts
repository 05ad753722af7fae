import { renameNodeInTemplate } from "@/lib/workflow/template";
import { fix, type LocalFix } from "./fixes";
import { repairDesignEdges } from "./repair-edges";
import { repairNode } from "./repair-nodes";
import { isIdentifier, slug, uniqueId } from "./resolve";
import type { Design, DesignAgent, DesignAnswer, DesignField, DesignNode } from "./schemas";

/**
 * Repairs of a new-workflow answer before it is compiled: node ids, agent keys and field keys made
 * identifiers and unique (references and templates follow a renamed node id), every node's kind,
 * fields and branches (repair-nodes.ts), every edge (repair-edges.ts); and when the design lists
 * agents but no node that does work, one step per agent in the order given.
 */

const WORK = new Set(["start", "end", "abort"]);

/** Ids made valid and unique; returns the renames (old → new) so references can follow. */
function uniqueIds<T>(
  items: T[],
  get: (x: T) => string,
  set: (x: T, id: string) => T,
  what: string,
  fixes: LocalFix[],
  base = "n",
) {
  const taken = new Set<string>();
  const renames = new Map<string, string>();
  const out = items.map((x) => {
    const raw = get(x);
    const id = isIdentifier(raw) && !taken.has(raw) ? (taken.add(raw), raw) : uniqueId(slug(raw, base), taken);
    if (id === raw) return x;
    if (!isIdentifier(raw) && !renames.has(raw)) renames.set(raw, id);
    fixes.push(
      fix(
        "id_renamed",
        `${what} "${raw}" ${isIdentifier(raw) ? "was used twice" : "is not an identifier"}: renamed to "${id}".`,
        isIdentifier(raw) ? "duplicate_id" : "invalid_id",
      ),
    );
    return set(x, id);
  });
  return { out, renames };
}

/** A node's id when the answer gave none: from its name or kind. */
const idOf = (n: DesignNode) => n.id || n.name || n.kind || "node";

function renameRefs(design: Design, nodes: Map<string, string>, keys: Map<string, string>): Design {
  const node = (id: string) => nodes.get(id) ?? id;
  const key = (k: string | undefined) => (k === undefined ? k : (keys.get(k) ?? k));
  const text = (t: string | undefined) =>
    t === undefined ? t : [...nodes].reduce((acc, [from, to]) => renameNodeInTemplate(acc, from, to), t);
  const deep = (v: unknown): unknown =>
    typeof v === "string"
      ? text(v)
      : Array.isArray(v)
        ? v.map(deep)
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)]))
          : v;
  return {
    ...design,
    nodes: design.nodes.map((n) => ({
      ...n,
      agent: key(n.agent),
      task: text(n.task),
      prompt: text(n.prompt),
      reason: text(n.reason),
      workers: n.workers?.map((w) => key(w)!),
      ...(n.outputs ? { outputs: deep(n.outputs) as Record<string, string> } : {}),
      ...(n.inputs ? { inputs: deep(n.inputs) as Record<string, string> } : {}),
      ...(n.args ? { args: deep(n.args) as Record<string, unknown> } : {}),
    })),
    edges: design.edges.map((e) => ({ ...e, from: node(e.from), to: node(e.to) })),
  };
}

function repairKeys(fields: DesignField[], what: string, fixes: LocalFix[]): DesignField[] {
  return uniqueIds(
    fields,
    (f) => f.key,
    (f, key) => ({ ...f, key }),
    what,
    fixes,
    "field",
  ).out;
}

/** Ids, keys and references of the answer. */
function repairIds(answer: DesignAnswer, fixes: LocalFix[]): DesignAnswer {
  const withIds = answer.design.nodes.map((n) => (n.id ? n : { ...n, id: idOf(n) }));
  const nodes = uniqueIds(
    withIds,
    (n) => n.id,
    (n, id) => ({ ...n, id }),
    "Node id",
    fixes,
  );
  const agents = uniqueIds(
    answer.profile.agents,
    (a) => a.key,
    (a, key) => ({ ...a, key }),
    "Agent key",
    fixes,
    "agent",
  );
  const design = renameRefs({ ...answer.design, nodes: nodes.out }, nodes.renames, agents.renames);
  const variables =
    answer.design.variables &&
    uniqueIds(
      answer.design.variables,
      (v) => v.key,
      (v, key) => ({ ...v, key }),
      "Variable",
      fixes,
      "var",
    ).out;
  return {
    profile: {
      ...answer.profile,
      agents: agents.out,
      inputs: repairKeys(answer.profile.inputs, "Input", fixes),
      outputs: repairKeys(answer.profile.outputs, "Output", fixes),
    },
    design: { ...design, ...(variables ? { variables } : {}) },
  };
}

/** A design whose nodes do no work but whose profile lists agents: one step per agent, in order. */
function stepsFromAgents(answer: DesignAnswer, fixes: LocalFix[]): Design {
  const { design, profile } = answer;
  if (design.nodes.some((n) => !WORK.has(n.kind)) || profile.agents.length === 0) return design;
  const taken = new Set(design.nodes.map((n) => n.id));
  const input = profile.inputs[0]?.key;
  const steps = profile.agents.map((a: DesignAgent, i) => ({ id: uniqueId(slug(a.key, "step"), taken), a, i }));
  const nodes: DesignNode[] = steps.map(({ id, a, i }) => ({
    id,
    kind: "agent",
    agent: a.key,
    task:
      i === 0
        ? `${a.role}${input ? `: {{inputs.${input}}}` : "."}`
        : `${a.role}. Work from: {{nodes.${steps[i - 1]!.id}.output}}`,
  }));
  const edges = steps.slice(1).map((s, i) => ({ from: steps[i]!.id, to: s.id }));
  fixes.push(
    fix(
      "node_created",
      `The design had no node doing work: one step per agent (${steps.map((s) => s.id).join(" -> ")}).`,
      "empty_design",
    ),
  );
  const start = design.nodes.filter((n) => n.kind === "start");
  const rest = design.nodes.filter((n) => n.kind !== "start");
  return { ...design, nodes: [...start, ...nodes, ...rest], edges: [...design.edges, ...edges] };
}

/** All design-level repairs of a new-workflow answer; document-level ones follow after compiling. */
export function repairAnswer(
  input: DesignAnswer,
  kinds: readonly string[],
  cap: number,
): { answer: DesignAnswer; fixes: LocalFix[] } {
  const fixes: LocalFix[] = [];
  const answer = repairIds(input, fixes);
  const edges = answer.design.edges.map((e) => ({ ...e }));
  const nodes = answer.design.nodes.map((n) => repairNode(n, kinds, edges, fixes));
  const design = stepsFromAgents({ ...answer, design: { ...answer.design, nodes, edges } }, fixes);
  const repaired = repairDesignEdges(design.edges, design.nodes, cap, fixes);
  return { answer: { ...answer, design: { ...design, nodes: repaired.nodes, edges: repaired.edges } }, fixes };
}

/** The loop cap used when a model omits one: a numeric `max_iterations` variable, else `fallback`. */
export function defaultCapOf(design: Pick<Design, "variables">, fallback = 3): number {
  const v = design.variables?.find((x) => /^max_?iterations$/i.test(x.key))?.value;
  return typeof v === "number" && Number.isInteger(v) && v >= 1 ? v : fallback;
}
