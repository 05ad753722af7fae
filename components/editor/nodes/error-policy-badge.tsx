"use client";
import type { WorkflowNode } from "@/lib/workflow/schema";
import { describeErrorPolicy } from "../error-policy-text";

/** A node's error policy on the canvas: its timeout, retries and what follows, in short (in full on hover). */
export function ErrorPolicyBadge({ node, className }: { node: WorkflowNode; className: string }) {
  const text = describeErrorPolicy(node);
  if (!text) return null;
  return (
    <span data-testid="error-policy-badge" title={text.full} className={className}>
      {text.short}
    </span>
  );
}
