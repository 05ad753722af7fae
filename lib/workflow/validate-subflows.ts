import { issue, q, qs, type ValidationIssue } from "./issues";
import type { NodeOf, Workflow } from "./schema";
import type { ValidationContext } from "./validate-nodes";

/**
 * Subflow nodes name a workflow to run. Without context only the choice itself is checked; with
 * `ctx.workflows` (the owner's workflows and the input fields of what a subflow would run) the
 * workflow must exist, every mapped input must be one of its fields and every required field mapped.
 */
export function checkSubflows(doc: Workflow, ctx: ValidationContext): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const node of doc.nodes) {
    if (node.type !== "subflow") continue;
    const at = { nodeId: node.id };
    if (node.workflowId.trim() === "") {
      issues.push(issue("subflow_workflow_missing", `Subflow ${q(node.id)} does not say which workflow to run; choose one.`, at));
      continue;
    }
    if (ctx.workflows) issues.push(...checkAgainst(node, ctx.workflows));
  }
  return issues;
}

function checkAgainst(node: NodeOf<"subflow">, workflows: NonNullable<ValidationContext["workflows"]>): ValidationIssue[] {
  const at = { nodeId: node.id };
  const target = workflows.find((w) => w.id === node.workflowId);
  if (!target) return [issue("subflow_unknown_workflow", `Subflow ${q(node.id)} runs a workflow that does not exist (or is not yours).`, at)];
  const declared = new Set(target.inputs.map((f) => f.key));
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(node.inputs).filter((k) => !declared.has(k))) {
    issues.push(issue("subflow_unknown_input", `Subflow ${q(node.id)} sets input ${q(key)}, which ${q(target.name)} does not declare (${declared.size ? qs([...declared]) : "it has no inputs"}).`, at));
  }
  for (const f of target.inputs.filter((f) => f.required && !Object.hasOwn(node.inputs, f.key))) {
    issues.push(issue("subflow_input_missing", `Subflow ${q(node.id)} leaves out ${q(f.key)}, a required input of ${q(target.name)}.`, at));
  }
  return issues;
}
