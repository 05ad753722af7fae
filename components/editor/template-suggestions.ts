import { buildGraph, forwardAncestors } from "@/lib/workflow/graph";
import type { Workflow } from "@/lib/workflow/schema";

/** One completion offered inside `{{ }}`: the reference text and where it comes from. */
export type Suggestion = { ref: string; detail: string };

/**
 * What a template of node `nodeId` may refer to: the run's inputs, the variables, the nodes upstream
 * of it (forward ancestors; a human review's answer part by part) and `feedback` when a loop edge
 * re-enters it (part by part when a human review sends the work back). Node undefined = a
 * workflow-level template (none of the node refs).
 */
export function templateSuggestions(doc: Workflow, nodeId?: string): Suggestion[] {
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
    if (n.type === "human") out.push(...answerRefs(`nodes.${n.id}.output`, n, n.name || n.id));
  }
  const loops = doc.edges.filter((e) => e.kind === "loop" && e.target === nodeId);
  if (loops.length > 0) out.push({ ref: "feedback", detail: "payload of the loop edge back here" });
  for (const e of loops) {
    const source = doc.nodes.find((n) => n.id === e.source);
    if (source?.type === "human") out.push(...answerRefs("feedback", source, `${source.name || source.id}, sent back`));
  }
  return out;
}

/** The parts of a human review's answer: the choice, each field's value and the comment. */
function answerRefs(prefix: string, node: Extract<Workflow["nodes"][number], { type: "human" }>, name: string): Suggestion[] {
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
