import { templateRefs } from "@/lib/workflow/template";
import { staticItemsProblem } from "@/lib/workflow/validate-map";
import type { Field, NodeOf, WorkflowNode } from "@/lib/workflow/schema";
import { fix } from "./fixes";
import type { Draft } from "./repair-graph";
import { uniqueId } from "./resolve";

/**
 * Map items that cannot give a list (empty, plain text, text around a tag, a router's choice, a map's
 * whole output, a scalar input) get a list source, the first that applies:
 * 1. a tag the items already hold that gives a list on its own (the text around it dropped);
 * 2. a map's output read whole → its `results`; a scalar input read → that input made a JSON list;
 * 3. the nearest node before the map on its incoming edges that answers something (agent, tool,
 *    orchestrator, subflow; a map's results) — an agent chosen this way is asked for a JSON list;
 * 4. the workflow's only json input;
 * 5. a new required json input `items`, which the run asks for.
 */
export function repairMapItems(d: Draft): void {
  for (const id of d.wf.nodes.map((n) => n.id)) {
    const node = d.node(id);
    if (node?.type !== "map") continue;
    const problem = staticItemsProblem(d.wf, node.items);
    if (problem === null) continue;
    const what = listSource(d, node);
    d.fixes.push(
      fix(
        "items_chosen",
        `Map "${id}": its items ${problem === "missing" ? "were missing" : problem}; it goes over ${what}.`,
        problem === "missing" ? "map_items_missing" : "map_items_not_list",
      ),
    );
  }
}

const ANSWERS = new Set<WorkflowNode["type"]>(["agent", "tool", "orchestrator", "subflow", "map"]);

/** Sets the map's items to a list source (see repairMapItems) and says which. */
function listSource(d: Draft, node: NodeOf<"map">): string {
  const set = (items: string) => d.replaceNode({ ...d.node(node.id)!, items } as WorkflowNode);
  const text = node.items.trim();
  for (const ref of templateRefs(text)) {
    const tag = text.slice(ref.start, ref.end);
    if (staticItemsProblem(d.wf, tag) === null) {
      set(tag);
      return `${tag}, the list it named`;
    }
    if (ref.kind === "node" && d.node(ref.nodeId)?.type === "map" && ref.path.length === 0) {
      const results = `{{nodes.${ref.nodeId}.output.results}}`;
      set(results);
      return `${results}, the results of the map it named`;
    }
    const input = ref.kind === "input" && ref.path.length === 0 && d.wf.inputs.find((f) => f.key === ref.key);
    if (input) {
      d.wf = { ...d.wf, inputs: d.wf.inputs.map((f) => (f === input ? { ...f, type: "json" } : f)) };
      set(tag);
      return `input "${input.key}", now a JSON list`;
    }
  }
  const before = nearestAnswering(d, node.id);
  if (before) {
    const results = before.type === "map" ? ".results" : "";
    set(`{{nodes.${before.id}.output${results}}}`);
    if (before.type === "agent" && !/\bjson\b/i.test(before.task)) {
      d.replaceNode({
        ...before,
        task: `${before.task.trim()} Answer with a JSON list of the items, nothing else.`.trim(),
      });
      return `what "${before.id}" answers (asked for a JSON list)`;
    }
    return `what "${before.id}" answers`;
  }
  const json = d.wf.inputs.filter((f) => f.type === "json");
  if (json.length === 1) {
    set(`{{inputs.${json[0]!.key}}}`);
    return `input "${json[0]!.key}"`;
  }
  const key = uniqueId("items", new Set([...d.wf.inputs.map((f) => f.key), ...d.wf.variables.map((v) => v.key)]));
  const field: Field = { key, type: "json", description: `The list map "${node.id}" goes over.`, required: true };
  d.wf = { ...d.wf, inputs: [...d.wf.inputs, field] };
  set(`{{inputs.${key}}}`);
  return `a new input "${key}" (a JSON list the run asks for)`;
}

/** The closest node before `id` on forward edges (breadth first, in edge order) whose output can be a list. */
function nearestAnswering(d: Draft, id: string): WorkflowNode | undefined {
  const seen = new Set([id]);
  let frontier = [id];
  while (frontier.length) {
    const next: string[] = [];
    for (const target of frontier)
      for (const e of d.wf.edges)
        if (e.target === target && e.kind !== "loop" && !seen.has(e.source)) {
          seen.add(e.source);
          next.push(e.source);
        }
    const hit = next.map((n) => d.node(n)).find((n) => n && ANSWERS.has(n.type));
    if (hit) return hit;
    frontier = next;
  }
  return undefined;
}
