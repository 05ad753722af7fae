import type { Workflow } from "@/lib/workflow/schema";
import type { DesignerIssue } from "./events";
import { slug } from "./resolve";
import type { DesignAnswer, EditAnswer } from "./schemas";

/**
 * Where in the model's answer each remaining issue is, as a schema path (`design.nodes[2].task`,
 * `profile.agents[0]`, `operations[3].node`): the repair message names it, so the model changes
 * that part instead of guessing.
 */

const FIELD_OF: Record<string, string> = {
  subflow_unknown_workflow: "workflowId",
  subflow_workflow_missing: "workflowId",
  subflow_unknown_input: "inputs",
  subflow_input_missing: "inputs",
  unknown_agent: "agent",
  router_too_few_branches: "branches",
  unwired_branch: "branches",
};

function nodePath(answer: DesignAnswer, id: string): string | undefined {
  const i = answer.design.nodes.findIndex((n) => n.id === id || slug(n.id || n.name || "") === id);
  return i >= 0 ? `design.nodes[${i}]` : undefined;
}

function designPath(
  issue: DesignerIssue & { field?: string },
  answer: DesignAnswer,
  wf: Workflow | undefined,
): string | undefined {
  if (issue.agentKey) {
    const j = answer.profile.agents.findIndex((a) => a.key === issue.agentKey);
    return j >= 0 ? `profile.agents[${j}]` : undefined;
  }
  if (issue.nodeId) {
    const at = nodePath(answer, issue.nodeId);
    const field = issue.field ?? FIELD_OF[issue.code];
    return at && field ? `${at}.${field}` : at;
  }
  if (issue.edgeId && wf) {
    const edge = wf.edges.find((e) => e.id === issue.edgeId);
    const k = edge ? answer.design.edges.findIndex((e) => e.from === edge.source && e.to === edge.target) : -1;
    return k >= 0 ? `design.edges[${k}]` : undefined;
  }
  if (issue.code.startsWith("output_") || issue.code.includes("output")) return "profile.outputs";
  return undefined;
}

function editPath(issue: DesignerIssue & { field?: string }, answer: EditAnswer): string | undefined {
  const op = /^Operation (\d+):/.exec(issue.message);
  if (op) return `operations[${Number(op[1]) - 1}]`;
  if (!issue.nodeId) return undefined;
  const k = answer.operations.findIndex(
    (o) =>
      ((o.op === "add_node" || o.op === "insert_between") &&
        (o.node.id === issue.nodeId || slug(o.node.id) === issue.nodeId)) ||
      (o.op === "update_node" && o.id === issue.nodeId),
  );
  if (k < 0) return `(current workflow) node "${issue.nodeId}"`;
  const o = answer.operations[k]!;
  const field = issue.field ?? FIELD_OF[issue.code];
  const base = o.op === "update_node" ? `operations[${k}].set` : `operations[${k}].node`;
  return field ? `${base}.${field}` : base;
}

/** The issues with `path` set where the answer has the part they are about. */
export function withPaths(
  issues: readonly DesignerIssue[],
  answer: DesignAnswer | EditAnswer,
  wf: Workflow | undefined,
): DesignerIssue[] {
  return issues.map((i) => {
    const path = "operations" in answer ? editPath(i, answer) : designPath(i, answer, wf);
    return path ? { ...i, path } : { ...i };
  });
}
