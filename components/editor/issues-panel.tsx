"use client";
import { Badge } from "@/components/ui/badge";
import type { ValidationIssue } from "@/lib/workflow/validate";

/** Validation issues of the document; clicking one focuses its node or edge on the canvas. */
export function IssuesPanel({
  issues,
  onFocus,
}: {
  issues: ValidationIssue[];
  onFocus: (issue: ValidationIssue) => void;
}) {
  if (issues.length === 0)
    return (
      <p className="text-xs text-muted" data-testid="issues-empty">
        No issues: this workflow can run.
      </p>
    );
  return (
    <ul className="grid gap-1" data-testid="issues-list">
      {issues.map((issue, i) => (
        <li key={`${issue.code}-${issue.nodeId ?? ""}-${issue.edgeId ?? ""}-${i}`}>
          <button
            type="button"
            data-testid="issue"
            data-code={issue.code}
            data-node-id={issue.nodeId}
            data-edge-id={issue.edgeId}
            onClick={() => onFocus(issue)}
            className="grid w-full gap-0.5 rounded-md border border-border p-2 text-left text-xs hover:border-primary"
          >
            <span className="flex items-center gap-2">
              <Badge tone={issue.severity === "error" ? "danger" : "warning"}>{issue.severity}</Badge>
              <code className="text-muted">{issue.code}</code>
            </span>
            <span>{issue.message}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Canvas overlay: messages per node/edge id from the issues (a branch issue lands on its node). */
export function issuesByElement(issues: readonly ValidationIssue[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const issue of issues) {
    const id = issue.edgeId ?? issue.nodeId;
    if (!id) continue;
    const list = map.get(id) ?? [];
    list.push(issue.message);
    map.set(id, list);
  }
  return map;
}
