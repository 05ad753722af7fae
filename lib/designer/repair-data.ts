import { buildGraph, forwardAncestors, reachable, reachableFromStart } from "@/lib/workflow/graph";
import { checkTemplate, templateRefs, type TemplateRef } from "@/lib/workflow/template";
import { isTerminal, outcomesOf, type MapBody, type Workflow, type WorkflowNode } from "@/lib/workflow/schema";
import { fix } from "./fixes";
import type { Draft } from "./repair-graph";
import { isIdentifier, resolveRef, slug, uniqueId } from "./resolve";

/**
 * Data repairs: empty branch conditions filled from the role of the node each branch leads to, end
 * outputs matched to the declared outputs (renamed, declared, or written from the end's predecessor),
 * and templates: broken tags made plain text, references to inputs / variables / nodes resolved by
 * exact, normalised then closest match, inputs and variables nobody declared declared. A reference to
 * a node that exists but does not run first is ambiguous and left for the model.
 */

/** What running a node does, for a branch condition: its agent's role, its tool, or what a terminal does. */
function purpose(wf: Workflow, n: WorkflowNode | undefined): string {
  if (!n) return "";
  const name = n.name || n.id.replace(/[_-]+/g, " ");
  switch (n.type) {
    case "agent":
    case "orchestrator": {
      const agent = wf.agents.find((a) => a.key === n.agent);
      return `${name}: ${agent?.description || agent?.name || n.task || "its task"}`.slice(0, 200);
    }
    case "tool":
      return `${name} (runs ${n.tool.name})`;
    case "end":
      return "the run is finished";
    case "abort":
      return `the run must stop (${n.reason})`.slice(0, 200);
    default:
      return name;
  }
}

/** Branches of routers (and of agents / reviews with several branches) with no condition get one. */
export function fillConditions(d: Draft): void {
  d.setNodes(
    d.wf.nodes.map((n) => {
      if (!(n.type === "router" || ((n.type === "agent" || n.type === "human") && n.branches.length > 1))) return n;
      if (n.branches.every((b) => b.condition.trim() || b.expression?.trim() || b.default)) return n;
      const branches = n.branches.map((b) => {
        if (b.condition.trim() || b.expression?.trim() || b.default) return b;
        const target = d.wf.edges.find((e) => e.source === n.id && e.sourceHandle === b.id)?.target;
        const what = purpose(d.wf, target ? d.node(target) : undefined) || b.label || b.id;
        d.fixes.push(
          fix("condition_filled", `Branch "${b.id}" of "${n.id}" had no condition: "${what}".`, "missing_condition"),
        );
        return { ...b, condition: `Choose this when next: ${what}` };
      });
      return { ...n, branches } as WorkflowNode;
    }),
  );
}

/** An end's output keys made identifiers (unique); a key that was not one is renamed. */
function validKeys(d: Draft, end: Extract<WorkflowNode, { type: "end" }>): Record<string, string> {
  const taken = new Set<string>();
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(end.outputs)) {
    const id = isIdentifier(key) && !taken.has(key) ? (taken.add(key), key) : uniqueId(slug(key, "output"), taken);
    if (id !== key)
      d.fixes.push(fix("id_renamed", `End "${end.id}": output key "${key}" renamed to "${id}".`, "invalid_id"));
    out[id] = value;
  }
  return out;
}

/** End outputs against the declared outputs: renamed to an unwritten declared one, declared, or written. */
export function repairOutputs(d: Draft): void {
  const live = reachableFromStart(buildGraph(d.wf));
  const ends = () =>
    d.wf.nodes.filter((n): n is Extract<WorkflowNode, { type: "end" }> => n.type === "end" && live.has(n.id));
  const declared = () => new Set(d.wf.outputs.map((o) => o.key));
  const written = () => new Set(ends().flatMap((e) => Object.keys(e.outputs)));
  for (const end of ends()) {
    const outputs: Record<string, string> = {};
    for (const [raw, value] of Object.entries(validKeys(d, end))) {
      const key = raw;
      const open = [...declared()].filter((k) => !written().has(k) && !(k in outputs));
      const hit = declared().has(key)
        ? undefined
        : (resolveRef(
            key,
            open.map((id) => ({ id })),
          ) ?? (open.length === 1 ? { id: open[0]! } : undefined));
      if (hit)
        d.fixes.push(
          fix(
            "reference_resolved",
            `End "${end.id}" writes "${key}": read as the declared output "${hit.id}".`,
            "output_not_written",
          ),
        );
      outputs[hit?.id ?? key] = value;
    }
    d.replaceNode({ ...end, outputs });
    for (const key of Object.keys(outputs).filter((k) => !declared().has(k))) {
      d.wf = { ...d.wf, outputs: [...d.wf.outputs, { key, type: "text", description: "", required: true }] };
      d.fixes.push(
        fix(
          "field_declared",
          `End "${end.id}" writes "${key}", which was not a declared output: declared it.`,
          "end_output_undeclared",
        ),
      );
    }
  }
  for (const key of [...declared()].filter((k) => !written().has(k))) {
    for (const end of ends()) {
      const pred = d.wf.edges.find(
        (e) => e.target === end.id && e.kind === "forward" && d.node(e.source)?.type !== "start",
      )?.source;
      const value = pred ? `{{nodes.${pred}.output}}` : "";
      d.replaceNode({ ...end, outputs: { ...end.outputs, [key]: value } });
      d.fixes.push(
        fix(
          "output_written",
          `Output "${key}" was written by no end: "${end.id}" writes it${pred ? ` from "${pred}"` : ""}.`,
          "output_not_written",
        ),
      );
    }
  }
}

/** `{{` and `}}` of tags that do not parse become single braces (the text stays readable, no tag remains). */
export function plainBraces(text: string): string {
  let out = text;
  for (let guard = 0; guard < 50; guard++) {
    const issue = checkTemplate(out)[0];
    if (!issue || out.slice(issue.offset, issue.offset + 2) !== "{{") return out;
    const close = out.indexOf("}}", issue.offset + 2);
    const next = out.indexOf("{{", issue.offset + 2);
    const tail =
      close >= 0 && (next < 0 || close < next)
        ? `${out.slice(issue.offset + 2, close)}}${out.slice(close + 2)}`
        : out.slice(issue.offset + 2);
    out = `${out.slice(0, issue.offset)}{${tail}`;
  }
  return out;
}

type Scope = { d: Draft; owner: string; nodeId?: string };
type Graph = ReturnType<typeof buildGraph>;

const tagOf = (ref: TemplateRef, key: string) => {
  const path = ref.path.map((s) => `.${s}`).join("");
  if (ref.kind === "node") return `{{nodes.${key}.output${path}}}`;
  return ref.kind === "feedback"
    ? `{{feedback${path}}}`
    : `{{${ref.kind === "input" ? "inputs" : "vars"}.${key}${path}}}`;
};

/** The repaired form of one reference (undefined: leave it as it is; "" drops it). */
function refFix(ref: TemplateRef, s: Scope): string | undefined {
  if (ref.kind === "node") return nodeRefFix(ref, s);
  const wf = s.d.wf;
  if (ref.kind === "input" || ref.kind === "var") {
    const keys = ref.kind === "input" ? wf.inputs.map((f) => f.key) : wf.variables.map((v) => v.key);
    if (keys.includes(ref.key)) return undefined;
    const hit = resolveRef(
      ref.key,
      keys.map((id) => ({ id })),
    );
    if (hit) {
      s.d.fixes.push(
        fix(
          "reference_resolved",
          `${s.owner} reads ${ref.kind} "${ref.key}": read as "${hit.id}".`,
          `unknown_${ref.kind === "input" ? "input" : "variable"}_ref`,
        ),
      );
      return tagOf(ref, hit.id);
    }
    if (ref.kind === "input")
      s.d.wf = { ...wf, inputs: [...wf.inputs, { key: ref.key, type: "text", description: "", required: true }] };
    else s.d.wf = { ...wf, variables: [...wf.variables, { key: ref.key, value: "", description: "" }] };
    s.d.fixes.push(
      fix(
        "field_declared",
        `${s.owner} reads ${ref.kind} "${ref.key}", which was not declared: declared it.`,
        `unknown_${ref.kind === "input" ? "input" : "variable"}_ref`,
      ),
    );
    return undefined;
  }
  return undefined;
}

/** A node reference: to a node that exists (see upstreamFix), else the closest upstream node, else dropped. */
function nodeRefFix(ref: Extract<TemplateRef, { kind: "node" }>, s: Scope): string | undefined {
  const wf = s.d.wf;
  const graph = buildGraph(wf);
  if (wf.nodes.some((n) => n.id === ref.nodeId))
    return s.nodeId ? upstreamFix(ref, { ...s, nodeId: s.nodeId }, graph) : undefined;
  const upstream = s.nodeId ? forwardAncestors(graph, s.nodeId) : new Set(wf.nodes.map((n) => n.id));
  const hit = resolveRef(
    ref.nodeId,
    wf.nodes.filter((n) => upstream.has(n.id)).map((n) => ({ id: n.id, aliases: [n.name] })),
  );
  if (!hit) {
    s.d.fixes.push(
      fix(
        "reference_dropped",
        `${s.owner} read node "${ref.nodeId}", which does not exist (it would read as empty): dropped.`,
        "unknown_node_ref",
      ),
    );
    return "";
  }
  s.d.fixes.push(
    fix("reference_resolved", `${s.owner} reads node "${ref.nodeId}": read as "${hit.id}".`, "unknown_node_ref"),
  );
  return tagOf(ref, hit.id);
}

/**
 * A node reading a node that does not run before it: when the one read is on no path after the
 * reader, an edge from it to the reader makes it run first (a data dependency is an ordering); a
 * node reading itself outside a loop reads nothing (the tag goes). One that runs after the reader is
 * ambiguous (which way should the data flow?) and left for the model.
 */
function upstreamFix(
  ref: Extract<TemplateRef, { kind: "node" }>,
  s: Scope & { nodeId: string },
  graph: Graph,
): string | undefined {
  const target = s.d.node(ref.nodeId)!;
  if (forwardAncestors(graph, s.nodeId).has(target.id)) return undefined;
  if (target.id === s.nodeId) {
    if ((graph.loopIn.get(s.nodeId)?.length ?? 0) > 0) return undefined;
    s.d.fixes.push(
      fix(
        "reference_dropped",
        `${s.owner} read its own output outside a loop (always empty): dropped.`,
        "node_ref_not_upstream",
      ),
    );
    return "";
  }
  if (reachable(graph, [s.nodeId]).has(target.id)) return undefined;
  if (isTerminal(target)) {
    s.d.fixes.push(
      fix(
        "reference_dropped",
        `${s.owner} read ${target.type} node "${target.id}", which has no output to read: dropped.`,
        "node_ref_not_upstream",
      ),
    );
    return "";
  }
  const handle = outcomesOf(target)[0] ?? "done";
  s.d.connect(target.id, handle, s.nodeId);
  s.d.fixes.push(
    fix(
      "data_wired",
      `${s.owner} reads "${target.id}", which did not run before it: "${target.id}" now leads to it.`,
      "node_ref_not_upstream",
    ),
  );
  return undefined;
}

/** One template repaired: broken tags made plain, references resolved or declared. */
function repairText(text: string, s: Scope): string {
  const plain = plainBraces(text);
  if (plain !== text)
    s.d.fixes.push(
      fix("template_fixed", `${s.owner}: a tag that did not parse was made plain text.`, "template_syntax"),
    );
  const refs = templateRefs(plain);
  let out = plain;
  for (const ref of [...refs].reverse()) {
    const tag = refFix(ref, s);
    if (tag !== undefined) out = `${out.slice(0, ref.start)}${tag}${out.slice(ref.end)}`;
  }
  return out;
}

const deep = (v: unknown, f: (t: string) => string): unknown =>
  typeof v === "string"
    ? f(v)
    : Array.isArray(v)
      ? v.map((x) => deep(x, f))
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x, f)]))
        : v;

const mapValues = (r: Record<string, string>, f: (t: string) => string) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, f(v)]));

const mapBody = (b: MapBody, f: (t: string) => string): MapBody =>
  b.type === "agent" ? { ...b, task: f(b.task) } : { ...b, args: deep(b.args, f) as Record<string, unknown> };

/** Every templated field of every node and every agent's instructions. */
export function repairTemplates(d: Draft): void {
  for (const id of d.wf.nodes.map((n) => n.id)) {
    const n = d.node(id)!;
    const f = (t: string) => repairText(t, { d, owner: `Node "${id}"`, nodeId: id });
    const next: WorkflowNode =
      n.type === "agent" || n.type === "orchestrator"
        ? { ...n, task: f(n.task) }
        : n.type === "router" || n.type === "human"
          ? { ...n, prompt: f(n.prompt) }
          : n.type === "tool"
            ? { ...n, args: deep(n.args, f) as Record<string, unknown> }
            : n.type === "subflow"
              ? { ...n, inputs: mapValues(n.inputs, f) }
              : n.type === "end"
                ? { ...n, outputs: mapValues(n.outputs, f) }
                : n.type === "abort"
                  ? { ...n, reason: f(n.reason) }
                  : n.type === "map"
                    ? { ...n, items: f(n.items), body: mapBody(n.body, f) }
                    : n;
    d.replaceNode(next);
  }
  const agents = d.wf.agents.map((a) => ({
    ...a,
    instructions: repairText(a.instructions, { d, owner: `Agent "${a.key}"` }),
  }));
  d.wf = { ...d.wf, agents };
}
