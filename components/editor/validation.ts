import { validate, type ValidationContext, type ValidationIssue } from "@/lib/workflow/validate";
import type { Workflow, WorkflowNode } from "@/lib/workflow/schema";

/**
 * Validation for the editor without re-validating what cannot have changed. Issues never depend on
 * node positions, and a drag (the most frequent edit) changes nothing else; at 2,000 nodes a full
 * validate() is a long task on the main thread (benchmark B3), so a document that differs from an
 * already validated neighbour only in positions reuses that neighbour's issues. Results are cached
 * by document identity (documents are immutable), so undo/redo back to a validated one is free,
 * per validation context (by identity: the editor keeps one context object while its page lives).
 */
const caches = new WeakMap<ValidationContext, WeakMap<Workflow, ValidationIssue[]>>();
const NO_CONTEXT: ValidationContext = {};

function cacheFor(context: ValidationContext): WeakMap<Workflow, ValidationIssue[]> {
  let cache = caches.get(context);
  if (!cache) caches.set(context, (cache = new WeakMap()));
  return cache;
}

/** True when `a` and `b` are the same document apart from node positions (identity-based, O(nodes)). */
export function onlyPositionsDiffer(a: Workflow, b: Workflow): boolean {
  if (a === b) return true;
  for (const key of Object.keys(b) as (keyof Workflow)[]) if (key !== "nodes" && a[key] !== b[key]) return false;
  if (Object.keys(a).length !== Object.keys(b).length || a.nodes.length !== b.nodes.length) return false;
  return a.nodes.every((n, i) => sameButPosition(n, b.nodes[i]!));
}

function sameButPosition(a: WorkflowNode, b: WorkflowNode): boolean {
  if (a === b) return true;
  const keys = Object.keys(b) as (keyof WorkflowNode)[];
  if (keys.length !== Object.keys(a).length) return false;
  return keys.every((k) => k === "position" || a[k] === b[k]);
}

/**
 * The issues of `doc` under `context` (default none: no registry-dependent checks): cached, or a
 * validated neighbour's when only positions differ, else validate().
 */
export function editorIssues(
  doc: Workflow,
  neighbours: readonly (Workflow | undefined)[] = [],
  context: ValidationContext = NO_CONTEXT,
): ValidationIssue[] {
  const cache = cacheFor(context);
  const known = cache.get(doc);
  if (known) return known;
  for (const other of neighbours) {
    const issues = other && cache.get(other);
    if (issues && onlyPositionsDiffer(other, doc)) {
      cache.set(doc, issues);
      return issues;
    }
  }
  const issues = validate(doc, context);
  cache.set(doc, issues);
  return issues;
}
