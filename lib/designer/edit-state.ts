import type { Operation } from "@/lib/workflow/operations";
import type { Workflow } from "@/lib/workflow/schema";
import type { DesignIssue, ModelClassMap, SavedAgentSpec } from "./compile";
import { fix, type LocalFix } from "./fixes";
import { resolveRef } from "./resolve";

/** The state of an edit being applied (edit.ts) and the helpers its translations share (edit-ops.ts). */

export interface EditOptions {
  kinds: readonly string[];
  models?: ModelClassMap;
  savedAgents?: readonly SavedAgentSpec[];
}

/**
 * The edit being applied: the document so far, issues, fixes, the lib/workflow operations applied,
 * and per node the duplicate branch ids a fix renamed (old → new), for the edges added after it.
 */
export type EditState = {
  wf: Workflow;
  issues: DesignIssue[];
  fixes: LocalFix[];
  opts: EditOptions;
  applied: Operation[];
  renamed: Map<string, Map<string, string>>;
  /** Nodes removed by this edit, each with the node that fed it (what readers of its output read instead). */
  removed: Map<string, string | undefined>;
};

/** Records that operation `i` cannot apply (the model is told why). */
export const opIssue = (s: EditState, i: number, message: string): undefined =>
  void s.issues.push({ code: "invalid_operation", message: `Operation ${i + 1}: ${message}` });

/** Records that operation `i` had nothing to do (and is skipped). */
export const noOp = (s: EditState, i: number, message: string): Operation[] => (
  s.fixes.push(fix("operation_dropped", `Operation ${i + 1}: ${message}: nothing to do.`, "invalid_operation")),
  []
);

/** The existing node `ref` names (exact, normalised or closest), reporting a fuzzy match. */
export function nodeRef(s: EditState, i: number, ref: string): string | undefined {
  const hit = resolveRef(
    ref,
    s.wf.nodes.map((n) => ({ id: n.id, aliases: n.name ? [n.name] : [] })),
  );
  if (hit && hit.how !== "exact")
    s.fixes.push(
      fix("reference_resolved", `Operation ${i + 1}: node "${ref}" read as "${hit.id}".`, "invalid_operation"),
    );
  return hit?.id;
}
