/**
 * Validation issues (docs/workflow-model.md, "Validation"): one stable code per rule, a severity, where it is
 * (node/edge/branch) and a human message. The editor pins them on the canvas, the designer feeds
 * them back to the model, the engine refuses to start while any error remains.
 */
/** Every validation code with its fixed severity: the stable catalogue tests and UIs rely on. */
export const issueSeverity = {
  no_start_node: "error",
  multiple_start_nodes: "error",
  duplicate_node_id: "error",
  duplicate_edge_id: "error",
  duplicate_edge: "warning",
  edge_unknown_source: "error",
  edge_unknown_target: "error",
  edge_unknown_handle: "error",
  edge_into_start: "error",
  no_end_node: "error",
  unreachable_node: "error",
  cannot_reach_terminal: "error",
  forward_cycle: "error",
  loop_missing_max_iterations: "error",
  loop_missing_on_exhausted: "error",
  loop_not_backward: "error",
  loop_continue_invalid: "error",
  loop_continue_unwired: "error",
  duplicate_branch_id: "error",
  unwired_branch: "error",
  no_branches: "error",
  router_too_few_branches: "error",
  expression_missing: "error",
  expression_invalid: "error",
  router_default_missing: "error",
  router_multiple_defaults: "error",
  default_has_expression: "warning",
  duplicate_field: "error",
  human_timeout_choice_unknown: "error",
  human_timeout_choice_unused: "warning",
  subflow_workflow_missing: "error",
  subflow_unknown_workflow: "error",
  subflow_unknown_input: "error",
  subflow_unknown_version: "error",
  subflow_input_missing: "error",
  duplicate_agent_key: "error",
  unknown_agent: "error",
  unknown_saved_agent: "error",
  unused_agent: "warning",
  unknown_tool: "error",
  tool_placeholder: "error",
  unknown_model: "error",
  orchestrator_no_workers: "error",
  orchestrator_unknown_worker: "error",
  orchestrator_self_worker: "error",
  duplicate_worker: "warning",
  duplicate_input_key: "error",
  duplicate_output_key: "error",
  duplicate_variable_key: "error",
  output_not_written: "error",
  end_output_undeclared: "warning",
  template_syntax: "error",
  unknown_input_ref: "error",
  unknown_variable_ref: "error",
  unknown_node_ref: "error",
  node_ref_not_upstream: "error",
  node_ref_loop_only: "warning",
  feedback_without_loop: "warning",
  limit_above_ceiling: "error",
  error_branch_clash: "error",
  fallback_branch_missing: "error",
  fallback_branch_unknown: "error",
  fallback_missing: "warning",
  retry_no_classes: "warning",
  retry_single_attempt: "warning",
  error_policy_ignored: "warning",
  item_outside_map: "error",
  map_items_missing: "error",
  map_items_not_list: "error",
  map_body_missing: "error",
  map_retry_unsupported: "error",
} as const satisfies Record<string, "error" | "warning">;

export type ValidationCode = keyof typeof issueSeverity;
export type Severity = "error" | "warning";

/** One problem found by validate(); ids locate it on the canvas, `field` names the templated field. */
export type ValidationIssue = {
  code: ValidationCode;
  severity: Severity;
  message: string;
  nodeId?: string;
  edgeId?: string;
  branchId?: string;
  agentKey?: string;
  field?: string;
};

/** Where an issue is: any of node, edge, branch, agent, field. */
export type IssueLocation = Pick<ValidationIssue, "nodeId" | "edgeId" | "branchId" | "agentKey" | "field">;

/** Builds an issue with the severity fixed by its code (so a code never changes severity by accident). */
export function issue(code: ValidationCode, message: string, at: IssueLocation = {}): ValidationIssue {
  const located = Object.fromEntries(Object.entries(at).filter(([, v]) => v !== undefined));
  return { code, severity: issueSeverity[code], message, ...located };
}

/** Quotes a name for messages: "outline". */
export const q = (name: string | number): string => `"${String(name)}"`;

/** Lists names for messages: "a", "b". */
export const qs = (names: readonly (string | number)[]): string => names.map(q).join(", ");

/** Whether a list of issues contains at least one error (warnings do not block a run). */
export const hasErrors = (issues: readonly ValidationIssue[]): boolean => issues.some((i) => i.severity === "error");
