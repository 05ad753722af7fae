import { buildGraph, forwardAncestors } from "@/lib/workflow/graph";
import type { NodeOf, Workflow, WorkflowNode } from "@/lib/workflow/schema";
import { findTarget, targetFields, type SubflowTargets } from "./subflow-targets";

/** One completion offered inside `{{ }}`: the reference text and where it comes from. */
export type Suggestion = { ref: string; detail: string };

/**
 * What a template of node `nodeId` may refer to: the run's inputs, the variables, the nodes upstream
 * of it (forward ancestors; a human review's answer part by part; a subflow's output key by key, from
 * the declared outputs of the workflow it runs, when `subflows` knows it) and `feedback` when a loop
 * edge re-enters it (part by part when a human review or a subflow sends the work back). Node
 * undefined = a workflow-level template (none of the node refs).
 */
export function templateSuggestions(doc: Workflow, nodeId?: string, subflows?: SubflowTargets): Suggestion[] {
  const out: Suggestion[] = [
    ...doc.inputs.map((f) => ({ ref: `inputs.${f.key}`, detail: `input (${f.type})` })),
    ...doc.variables.map((v) => ({ ref: `vars.${v.key}`, detail: `variable = ${String(v.value)}` })),
  ];
  if (nodeId === undefined) return out;
  const graph = buildGraph(doc);
  const upstream = forwardAncestors(graph, nodeId);
  for (const n of doc.nodes) {
    if (n.id === nodeId || !upstream.has(n.id) || n.type === "start") continue;
    out.push({ ref: `nodes.${n.id}.output`, detail: `output of ${n.name || n.id}` });
    out.push(...partRefs(`nodes.${n.id}.output`, n, n.name || n.id, subflows));
  }
  const loops = doc.edges.filter((e) => e.kind === "loop" && e.target === nodeId);
  if (loops.length > 0) out.push({ ref: "feedback", detail: "payload of the loop edge back here" });
  for (const e of loops) {
    const source = doc.nodes.find((n) => n.id === e.source);
    if (source) out.push(...partRefs("feedback", source, `${source.name || source.id}, sent back`, subflows));
  }
  return out;
}

/** The parts of a node's output worth offering one by one: a human review's answer, a subflow's outputs. */
function partRefs(
  prefix: string,
  node: WorkflowNode,
  name: string,
  subflows: SubflowTargets | undefined,
): Suggestion[] {
  if (node.type === "human") return answerRefs(prefix, node, name);
  if (node.type === "subflow") return subflowRefs(prefix, node, name, subflows);
  if (node.type === "map")
    return [
      { ref: `${prefix}.results`, detail: `results of ${name}, in item order` },
      { ref: `${prefix}.count`, detail: `items ${name} went over` },
    ];
  return [];
}

/** Each declared output of the workflow a subflow runs (nothing while none is chosen or it is unknown). */
function subflowRefs(
  prefix: string,
  node: NodeOf<"subflow">,
  name: string,
  subflows: SubflowTargets | undefined,
): Suggestion[] {
  const target = findTarget(subflows, node.workflowId);
  const outputs = target ? (targetFields(target, node.version)?.outputs ?? []) : [];
  return outputs.map((o) => ({ ref: `${prefix}.${o.key}`, detail: `${o.key} from ${target?.name} (${name})` }));
}

/** The parts of a human review's answer: the choice, each field's value and the comment. */
function answerRefs(prefix: string, node: NodeOf<"human">, name: string): Suggestion[] {
  return [
    { ref: `${prefix}.choice`, detail: `choice made in ${name}` },
    ...node.fields.map((f) => ({ ref: `${prefix}.values.${f.key}`, detail: `${f.key} (${f.type}) given in ${name}` })),
    { ref: `${prefix}.comment`, detail: `comment given in ${name}` },
  ];
}

/**
 * The partial reference being typed at `caret`: the text after an unclosed `{{`, or null when the
 * caret is not inside a tag.
 */
export function openTagAt(text: string, caret: number): { start: number; partial: string } | null {
  const before = text.slice(0, caret);
  const open = before.lastIndexOf("{{");
  if (open < 0 || before.indexOf("}}", open) >= 0) return null;
  const partial = before.slice(open + 2).trimStart();
  return /^[A-Za-z0-9_.-]*$/.test(partial) ? { start: open, partial } : null;
}

/** Replaces the open tag at `caret` with the completed `{{ref}}`; returns the text and new caret. */
export function insertSuggestion(text: string, caret: number, ref: string): { text: string; caret: number } {
  const tag = openTagAt(text, caret);
  if (!tag) return { text: text.slice(0, caret) + `{{${ref}}}` + text.slice(caret), caret: caret + ref.length + 4 };
  const after = text.slice(caret).startsWith("}}") ? text.slice(caret + 2) : text.slice(caret);
  const head = text.slice(0, tag.start) + `{{${ref}}}`;
  return { text: head + after, caret: head.length };
}
