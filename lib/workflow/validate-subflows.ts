import { issue, q, qs, type ValidationIssue } from "./issues";
import type { NodeOf, Workflow } from "./schema";
import type { SubflowWorkflow, ValidationContext } from "./validate-nodes";

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
      issues.push(
        issue("subflow_workflow_missing", `Subflow ${q(node.id)} does not say which workflow to run; choose one.`, at),
      );
      continue;
    }
    if (ctx.workflows) issues.push(...checkAgainst(node, ctx.workflows));
  }
  return issues;
}

function checkAgainst(node: NodeOf<"subflow">, workflows: readonly SubflowWorkflow[]): ValidationIssue[] {
  const at = { nodeId: node.id };
  const target = workflows.find((w) => w.id === node.workflowId);
  if (!target)
    return [
      issue(
        "subflow_unknown_workflow",
        `Subflow ${q(node.id)} runs a workflow that does not exist (or is not yours).`,
        at,
      ),
    ];
  const fields = fieldsAtVersion(target, node.version);
  if (!fields) {
    const newest = target.version ? `its newest is v${target.version}` : "nothing of it is saved yet";
    return [
      issue(
        "subflow_unknown_version",
        `Subflow ${q(node.id)} runs version ${node.version} of ${q(target.name)}, which is not saved (${newest}).`,
        at,
      ),
    ];
  }
  const declared = new Set(fields.inputs.map((f) => f.key));
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(node.inputs).filter((k) => !declared.has(k))) {
    issues.push(
      issue(
        "subflow_unknown_input",
        `Subflow ${q(node.id)} sets input ${q(key)}, which ${q(target.name)} does not declare (${declared.size ? qs([...declared]) : "it has no inputs"}).`,
        at,
      ),
    );
  }
  for (const f of fields.inputs.filter((f) => f.required && !Object.hasOwn(node.inputs, f.key))) {
    issues.push(
      issue(
        "subflow_input_missing",
        `Subflow ${q(node.id)} leaves out ${q(f.key)}, a required input of ${q(target.name)}.`,
        at,
      ),
    );
  }
  return issues;
}

/**
 * The fields (inputs, and outputs where given) of the version a subflow node runs: the target's own
 * for an unpinned node; for a pinned one, those of the history entry it falls in, or null when that
 * version is not saved (known only when the target says its newest `version`). Without history a
 * pinned version gets the target's own fields.
 */
export function fieldsAtVersion<I, O = unknown>(
  target: {
    inputs: readonly I[];
    outputs?: readonly O[];
    version?: number | null;
    history?: readonly { from: number; inputs: readonly I[]; outputs?: readonly O[] }[];
  },
  pinned: number | undefined,
): { inputs: readonly I[]; outputs?: readonly O[] } | null {
  if (pinned === undefined) return target;
  if (target.version !== undefined && (target.version === null || pinned > target.version)) return null;
  if (!target.history) return target;
  let found: { inputs: readonly I[]; outputs?: readonly O[] } | null = null;
  for (const h of target.history) if (h.from <= pinned) found = h;
  return found;
}

/** The workflows a document's subflow nodes run, each once, in node order (nodes without a choice left out). */
export function subflowWorkflowIds(doc: Pick<Workflow, "nodes">): string[] {
  return [...new Set(doc.nodes.flatMap((n) => (n.type === "subflow" && n.workflowId !== "" ? [n.workflowId] : [])))];
}
