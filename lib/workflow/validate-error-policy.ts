import { ERROR_OUTCOME } from "./error-policy";
import { issue, q, qs, type ValidationIssue } from "./issues";
import { outcomesOf, type Workflow, type WorkflowNode } from "./schema";

/** Node kinds whose steps never fail on their own: an error policy on them does nothing. */
const NEVER_FAIL = new Set<WorkflowNode["type"]>(["start", "end", "abort"]);

/**
 * Error policies (`onError`): a policy that takes the error branch needs that outcome free (no
 * declared branch named `error`; its wiring is checked with the other outcomes); a fallback needs
 * its value and, on a node with several outcomes, the outcome to follow; a retry needs at least one
 * error class and more than one attempt to ever retry.
 */
export function checkErrorPolicies(doc: Workflow): ValidationIssue[] {
  return doc.nodes.flatMap((node) => (node.onError ? checkPolicy(node) : []));
}

function checkPolicy(node: WorkflowNode): ValidationIssue[] {
  const policy = node.onError!;
  const at = { nodeId: node.id };
  const name = q(node.id);
  if (NEVER_FAIL.has(node.type)) {
    return [
      issue(
        "error_policy_ignored",
        `Node ${name} is a ${node.type} node, whose step cannot fail: its error policy does nothing.`,
        at,
      ),
    ];
  }
  const issues: ValidationIssue[] = [];
  const declared = "branches" in node ? node.branches.map((b) => b.id) : [];
  if (policy.onExhausted === "error_branch" && declared.includes(ERROR_OUTCOME)) {
    issues.push(
      issue(
        "error_branch_clash",
        `Node ${name} declares a branch ${q(ERROR_OUTCOME)} and takes its error branch on failure; rename the branch.`,
        { ...at, branchId: ERROR_OUTCOME },
      ),
    );
  }
  if (policy.onExhausted === "fallback") issues.push(...checkFallback(node));
  const retry = policy.retry;
  if (retry && retry.on.length === 0)
    issues.push(issue("retry_no_classes", `Node ${name} retries no error class, so it never retries.`, at));
  if (retry && retry.maxAttempts <= 1)
    issues.push(issue("retry_single_attempt", `Node ${name} allows 1 attempt in all, so it never retries.`, at));
  return issues;
}

function checkFallback(node: WorkflowNode): ValidationIssue[] {
  const policy = node.onError!;
  const at = { nodeId: node.id };
  const issues: ValidationIssue[] = [];
  const outcomes = outcomesOf(node).filter((o) => o !== ERROR_OUTCOME || node.type !== "tool");
  if (policy.fallback === undefined)
    issues.push(
      issue(
        "fallback_missing",
        `Node ${q(node.id)} falls back on failure but has no fallback output; it will answer null.`,
        at,
      ),
    );
  if (policy.fallbackBranch === undefined) {
    if (outcomes.length > 1) {
      issues.push(
        issue(
          "fallback_branch_missing",
          `Node ${q(node.id)} falls back on failure but does not say which of its outcomes ` +
            `(${qs(outcomes)}) to follow then.`,
          at,
        ),
      );
    }
  } else if (!outcomes.includes(policy.fallbackBranch)) {
    issues.push(
      issue(
        "fallback_branch_unknown",
        `Node ${q(node.id)} falls back along ${q(policy.fallbackBranch)}, ` +
          `which is not one of its outcomes (${qs(outcomes)}).`,
        { ...at, branchId: policy.fallbackBranch },
      ),
    );
  }
  return issues;
}
