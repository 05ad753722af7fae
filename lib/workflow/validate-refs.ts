import { compileExpression, expressionRefs } from "./expression";
import { buildGraph, forwardAncestors, reachable, type Graph } from "./graph";
import { issue, q, type ValidationIssue } from "./issues";
import type { Workflow, WorkflowNode } from "./schema";
import { checkTemplate, templateRefs } from "./template";

/** A templated (or expression) field of a node: where it is and its text. */
export type TemplatedField = {
  field: string;
  text: string;
  kind: "template" | "expression";
  branchId?: string;
  itemScope?: true;
};

function argStrings(value: unknown, path: string): { field: string; text: string }[] {
  if (typeof value === "string") return [{ field: path, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => argStrings(v, `${path}.${i}`));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => argStrings(v, `${path}.${k}`));
  return [];
}

/** Every field of a node that the engine resolves against run data. */
export function templatedFields(node: WorkflowNode): TemplatedField[] {
  const t = (field: string, text: string): TemplatedField => ({ field, text, kind: "template" });
  switch (node.type) {
    case "start":
      return [];
    case "agent":
    case "orchestrator":
      return [t("task", node.task)];
    case "router":
      if (node.mode === "llm") return [t("prompt", node.prompt)];
      return node.branches
        .filter((b) => !b.default && b.expression?.trim())
        .map((b) => ({
          field: `branches.${b.id}.expression`,
          text: b.expression ?? "",
          kind: "expression",
          branchId: b.id,
        }));
    case "tool":
      return argStrings(node.args, "args").map(({ field, text }) => t(field, text));
    case "human":
      return [t("prompt", node.prompt)];
    case "subflow":
      return Object.entries(node.inputs).map(([key, text]) => t(`inputs.${key}`, text));
    case "end":
      return Object.entries(node.outputs).map(([key, text]) => t(`outputs.${key}`, text));
    case "abort":
      return [t("reason", node.reason)];
    case "map": {
      // the body's fields are rendered once per item: they may read {{item}}
      const body =
        node.body.type === "agent"
          ? [t("body.task", node.body.task)]
          : argStrings(node.body.args, "body.args").map(({ field, text }) => t(field, text));
      return [t("items", node.items), ...body.map((f) => ({ ...f, itemScope: true as const }))];
    }
  }
}

type Ref =
  { kind: "input" | "var"; key: string } | { kind: "node"; nodeId: string } | { kind: "feedback" } | { kind: "item" };

function refsOf(f: TemplatedField): Ref[] {
  if (f.kind === "template") return templateRefs(f.text);
  const compiled = compileExpression(f.text);
  return compiled.ok ? expressionRefs(compiled.ast) : [];
}

type Scope = { doc: Workflow; graph: Graph; inputs: Set<string>; vars: Set<string> };

function checkRef(
  ref: Ref,
  owner: string,
  at: { nodeId?: string; agentKey?: string; field: string; branchId?: string },
  s: Scope,
  node?: WorkflowNode,
  itemScope = false,
): ValidationIssue[] {
  const where = `${owner} (${at.field})`;
  switch (ref.kind) {
    case "item":
      return itemScope
        ? []
        : [
            issue(
              "item_outside_map",
              `${where} reads {{item}}, which only a map node's body has (it is empty here).`,
              at,
            ),
          ];
    case "input":
      return s.inputs.has(ref.key)
        ? []
        : [
            issue(
              "unknown_input_ref",
              `${where} reads input ${q(ref.key)}, but the workflow declares no such input.`,
              at,
            ),
          ];
    case "var":
      return s.vars.has(ref.key)
        ? []
        : [
            issue(
              "unknown_variable_ref",
              `${where} reads variable ${q(ref.key)}, but the workflow declares no such variable.`,
              at,
            ),
          ];
    case "feedback":
      if (!node || (s.graph.loopIn.get(node.id)?.length ?? 0) > 0) return [];
      return [
        issue(
          "feedback_without_loop",
          `${where} reads {{feedback}}, but no loop edge re-enters it, so it is always empty.`,
          at,
        ),
      ];
    case "node":
      return checkNodeRef(ref.nodeId, where, at, s, node);
  }
}

function checkNodeRef(
  target: string,
  where: string,
  at: { field: string },
  s: Scope,
  node?: WorkflowNode,
): ValidationIssue[] {
  if (!s.graph.nodes.has(target))
    return [issue("unknown_node_ref", `${where} reads node ${q(target)}, which does not exist.`, at)];
  if (!node || forwardAncestors(s.graph, node.id).has(target)) return [];
  const inLoop =
    target !== node.id && reachable(s.graph, [node.id]).has(target) && reachable(s.graph, [target]).has(node.id);
  if (inLoop) {
    return [
      issue(
        "node_ref_loop_only",
        `${where} reads node ${q(target)}, which only runs after it (through a loop), so it is empty on the first visit; prefer {{feedback}}.`,
        at,
      ),
    ];
  }
  return [issue("node_ref_not_upstream", `${where} reads node ${q(target)}, which is not upstream of it.`, at)];
}

/** Templates and expressions: syntax, and references only to inputs, variables and upstream nodes. */
export function checkReferences(doc: Workflow, graph: Graph = buildGraph(doc)): ValidationIssue[] {
  const scope: Scope = {
    doc,
    graph,
    inputs: new Set(doc.inputs.map((f) => f.key)),
    vars: new Set(doc.variables.map((v) => v.key)),
  };
  const issues: ValidationIssue[] = [];
  for (const node of doc.nodes) {
    for (const f of templatedFields(node)) {
      const at = { nodeId: node.id, field: f.field, ...(f.branchId ? { branchId: f.branchId } : {}) };
      const owner = `Node ${q(node.id)}`;
      if (f.kind === "template") {
        for (const t of checkTemplate(f.text)) {
          issues.push(
            issue("template_syntax", `${owner} (${f.field}): ${t.message} (line ${t.line}, column ${t.column})`, at),
          );
        }
      }
      for (const ref of refsOf(f)) issues.push(...checkRef(ref, owner, at, scope, node, f.itemScope === true));
    }
  }
  for (const agent of doc.agents) {
    const at = { agentKey: agent.key, field: "instructions" };
    const owner = `Agent ${q(agent.key)}`;
    for (const t of checkTemplate(agent.instructions)) {
      issues.push(
        issue("template_syntax", `${owner} (instructions): ${t.message} (line ${t.line}, column ${t.column})`, at),
      );
    }
    for (const ref of templateRefs(agent.instructions)) {
      if (ref.kind !== "feedback" && ref.kind !== "item") issues.push(...checkRef(ref, owner, at, scope));
    }
  }
  return issues;
}
