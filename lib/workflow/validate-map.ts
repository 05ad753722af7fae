import { issue, q, type ValidationIssue } from "./issues";
import { itemsList } from "./map";
import type { NodeOf, Workflow } from "./schema";
import { templateRefs } from "./template";

/**
 * Map nodes (docs/workflow-model.md, "Map"): a body to run, an items template, and an items value
 * that is a list whenever that can be known before the run. What only the run can know (an agent's
 * answer, a tool's result) is checked when the map step starts: anything but a list fails it.
 */
export function checkMaps(doc: Workflow): ValidationIssue[] {
  return doc.nodes.flatMap((n) => (n.type === "map" ? checkMap(doc, n) : []));
}

function checkMap(doc: Workflow, node: NodeOf<"map">): ValidationIssue[] {
  const at = { nodeId: node.id };
  const issues: ValidationIssue[] = [];
  if (node.body.type === "agent" && node.body.agent === "") {
    issues.push(
      issue("map_body_missing", `Map node ${q(node.id)} has no agent to run for each item; pick one.`, {
        ...at,
        field: "body.agent",
      }),
    );
  }
  if (node.onError?.retry) {
    issues.push(
      issue(
        "map_retry_unsupported",
        `Map node ${q(node.id)} retries: a map's items fail by its "onItemError" (fail, skip or collect), not by retries; remove the retry.`,
        { ...at, field: "onError.retry" },
      ),
    );
  }
  const problem = staticItemsProblem(doc, node.items);
  if (problem === "missing") {
    issues.push(
      issue(
        "map_items_missing",
        `Map node ${q(node.id)} has no items; give it a list, e.g. {{nodes.plan.output}} or {{inputs.questions}}.`,
        { ...at, field: "items" },
      ),
    );
  } else if (problem) {
    issues.push(
      issue("map_items_not_list", `Map node ${q(node.id)}: its items ${problem}, not a list.`, {
        ...at,
        field: "items",
      }),
    );
  }
  return issues;
}

/**
 * Why an items template cannot give a list, when that is known without running ("missing" when it
 * is empty), or null. A lone tag must read something that may be a list; text around tags renders text.
 */
export function staticItemsProblem(doc: Workflow, template: string): string | null {
  const text = template.trim();
  if (text === "") return "missing";
  const refs = templateRefs(text);
  if (refs.length === 0) {
    return itemsList(text).ok ? null : "are plain text";
  }
  const ref = refs[0]!;
  if (refs.length > 1 || ref.start !== 0 || ref.end !== text.length) return "mix text and tags, which renders text";
  switch (ref.kind) {
    case "input": {
      const field = doc.inputs.find((f) => f.key === ref.key);
      if (!field || ref.path.length > 0 || field.type === "json") return null;
      return `read input ${q(ref.key)}, which is of type ${field.type}`;
    }
    case "var": {
      const v = doc.variables.find((x) => x.key === ref.key);
      if (!v || ref.path.length > 0) return null;
      return itemsList(v.value).ok ? null : `read variable ${q(ref.key)}, which holds a ${typeof v.value}`;
    }
    case "node": {
      const source = doc.nodes.find((n) => n.id === ref.nodeId);
      if (!source || ref.path.length > 0) return null;
      if (source.type === "map")
        return `read map ${q(ref.nodeId)}'s whole output (an object); read its results: {{nodes.${ref.nodeId}.output.results}}`;
      if (source.type === "router" || source.type === "human")
        return `read ${source.type} ${q(ref.nodeId)}'s output, which is an object of its choice`;
      return null;
    }
    case "feedback":
      return null;
    case "item":
      return "read {{item}}, which a map's items cannot";
  }
}
