import { isValidElement, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { defaultNode } from "@/lib/workflow/registry";
import { nodeKinds, workflowSchema, type WorkflowNode } from "@/lib/workflow/schema";
import { ErrorPolicyForm } from "./error-policy-form";
import { CommitInput, SelectField } from "./fields";
import { Inspector } from "./inspector";
import { elementsOf, tagOf } from "./test-markup";
import type { InspectorActions } from "./types";

const actions = (): InspectorActions => ({
  updateNode: vi.fn(),
  updateEdge: vi.fn(),
  updateWorkflow: vi.fn(),
  upsertAgent: vi.fn(),
  newAgentKey: vi.fn(() => "a9"),
});

/** Elements of a shallow tree whose props match `has` (the form's private parts and plain inputs). */
function withProps(
  tree: ReactNode,
  has: (p: Record<string, unknown>) => boolean,
): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(tree)) return tree.flatMap((t: ReactNode) => withProps(t, has));
  if (!isValidElement<Record<string, unknown>>(tree)) return [];
  return [...(has(tree.props) ? [tree] : []), ...withProps(tree.props.children as ReactNode, has)];
}

const agent = (extra: Partial<WorkflowNode> = {}) => ({ ...defaultNode("agent", "a1"), ...extra }) as WorkflowNode;

describe("ErrorPolicyForm", () => {
  it("is offered for every kind whose step can fail, not for start, end and abort", () => {
    for (const kind of nodeKinds) {
      const doc = workflowSchema.parse({ nodes: [defaultNode(kind, "n1")] });
      const html = renderToStaticMarkup(<Inspector doc={doc} nodeId="n1" act={actions()} />);
      expect(html.includes('data-testid="error-policy"'), kind).toBe(!["start", "end", "abort"].includes(kind));
    }
  });

  it("shows the node's timeout, retries and fallback", () => {
    const node = agent({
      timeoutMs: 45_000,
      onError: {
        retry: { maxAttempts: 4, initialDelayMs: 2_500, backoffFactor: 3, on: ["rate_limit", "invalid_output"] },
        onExhausted: "fallback",
        fallback: { answer: "n/a" },
      },
    });
    const html = renderToStaticMarkup(<ErrorPolicyForm node={node} act={actions()} />);
    expect(tagOf(html, "node-timeout")).toContain('value="45"');
    expect(tagOf(html, "retry-attempts")).toContain('value="4"');
    expect(tagOf(html, "retry-delay")).toContain('value="2.5"');
    expect(tagOf(html, "retry-factor")).toContain('value="3"');
    expect(tagOf(html, "retry-on-rate_limit")).toContain("checked");
    expect(tagOf(html, "retry-on-timeout")).not.toContain("checked");
    expect(html).toMatch(
      /data-testid="fallback-output"[^>]*>\{\n {2}&quot;answer&quot;: &quot;n\/a&quot;\n\}<\/textarea>/,
    );
  });

  it("each part edits the node's onError (or timeoutMs); back to 'fail' without retries removes the policy", () => {
    const act = actions();
    const plain = agent();
    const tree = ErrorPolicyForm({ node: plain, act });
    const [timeout] = elementsOf(tree, CommitInput);
    timeout?.props.onCommit("30");
    expect(act.updateNode).toHaveBeenLastCalledWith("a1", { timeoutMs: 30_000 });
    timeout?.props.onCommit("");
    expect(act.updateNode).toHaveBeenLastCalledWith("a1", { timeoutMs: undefined });
    const [enable] = withProps(tree, (p) => p["data-testid"] === "retry-enabled");
    (enable?.props.onChange as (e: unknown) => void)({ target: { checked: true } });
    expect(act.updateNode).toHaveBeenLastCalledWith("a1", {
      onError: {
        onExhausted: "fail",
        retry: {
          maxAttempts: 3,
          initialDelayMs: 1_000,
          backoffFactor: 2,
          on: ["rate_limit", "timeout", "provider_5xx"],
        },
      },
    });
    const [exhausted] = elementsOf(tree, SelectField<"fail" | "fallback" | "error_branch">);
    exhausted?.props.onChange("error_branch");
    expect(act.updateNode).toHaveBeenLastCalledWith("a1", { onError: { onExhausted: "error_branch" } });

    const retried = agent({
      onError: {
        retry: { maxAttempts: 3, initialDelayMs: 1_000, backoffFactor: 2, on: ["timeout"] },
        onExhausted: "fail",
      },
    });
    const again = ErrorPolicyForm({ node: retried, act });
    const [fields] = withProps(again, (p) => "retry" in p && typeof p.onChange === "function");
    (fields?.props.onChange as (r: unknown) => void)({
      maxAttempts: 5,
      initialDelayMs: 1_000,
      backoffFactor: 2,
      on: ["timeout"],
    });
    expect(act.updateNode).toHaveBeenLastCalledWith("a1", {
      onError: {
        onExhausted: "fail",
        retry: { maxAttempts: 5, initialDelayMs: 1_000, backoffFactor: 2, on: ["timeout"] },
      },
    });
    const [off] = withProps(again, (p) => p["data-testid"] === "retry-enabled");
    (off?.props.onChange as (e: unknown) => void)({ target: { checked: false } });
    expect(act.updateNode).toHaveBeenLastCalledWith("a1", { onError: undefined });
  });
});
