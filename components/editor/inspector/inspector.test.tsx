import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { defaultNode } from "@/lib/workflow/registry";
import { nodeKinds, workflowSchema, type Field, type Workflow } from "@/lib/workflow/schema";
import { BranchesEditor } from "./branches-editor";
import { FieldList } from "./field-list";
import { CommitInput, SelectField } from "./fields";
import { HumanForm, minutesToMs } from "./human-form";
import { Inspector } from "./inspector";
import { AgentSpecFields } from "./agent-form";
import { ModelChoicesProvider } from "../model-choices-context";
import { WorkflowInspector } from "./workflow-inspector";
import { TemplateField } from "./template-field";
import { elementsOf, tagOf } from "./test-markup";
import type { InspectorActions } from "./types";

const actions = (): InspectorActions => ({
  updateNode: vi.fn(),
  updateEdge: vi.fn(),
  updateWorkflow: vi.fn(),
  upsertAgent: vi.fn(),
  newAgentKey: vi.fn(() => "agent9"),
});

/** Start → write (agent) → review (human); review's "reject" loops back to write. */
function reviewed(): Workflow {
  return workflowSchema.parse({
    inputs: [{ key: "topic" }],
    agents: [{ key: "writer", name: "Writer" }],
    nodes: [
      { id: "start", type: "start" },
      { id: "write", type: "agent", agent: "writer" },
      {
        id: "review",
        type: "human",
        name: "Editor sign-off",
        prompt: "Publish {{nodes.write.output}}?",
        branches: [
          { id: "approve", label: "Approve" },
          { id: "reject", label: "Send back" },
        ],
        fields: [{ key: "notes", type: "text", description: "What to change", required: false }],
      },
      { id: "end", type: "end" },
    ],
    edges: [
      { id: "e1", source: "start", sourceHandle: "next", target: "write" },
      { id: "e2", source: "write", sourceHandle: "done", target: "review" },
      { id: "e3", source: "review", sourceHandle: "approve", target: "end" },
      {
        id: "loop",
        source: "review",
        sourceHandle: "reject",
        target: "write",
        kind: "loop",
        maxIterations: 3,
        onExhausted: "continue",
      },
    ],
  });
}

describe("Inspector", () => {
  it("has a form for every node kind", () => {
    for (const kind of nodeKinds) {
      const doc = workflowSchema.parse({ nodes: [defaultNode(kind, "n1")] });
      const html = renderToStaticMarkup(<Inspector doc={doc} nodeId="n1" act={actions()} />);
      expect(html, kind).toContain('data-testid="node-inspector"');
    }
  });

  it("human review: the templated prompt, the branches and the fields with key, type, description and required", () => {
    const html = renderToStaticMarkup(<Inspector doc={reviewed()} nodeId="review" act={actions()} />);
    expect(html).toContain("human · <code>review</code>");
    expect(html).toMatch(
      /<textarea[^>]*data-testid="human-prompt"[^>]*>Publish \{\{nodes\.write\.output\}\}\?<\/textarea>/,
    );
    expect(html).toContain('data-testid="branches"');
    expect(tagOf(html, "branch-0-id")).toContain('value="approve"');
    expect(tagOf(html, "branch-1-label")).toContain('value="Send back"');
    expect(html).toContain('data-testid="add-branch"');
    expect(html).toContain('data-testid="fields-field"');
    expect(tagOf(html, "field-0-key")).toContain('value="notes"');
    expect(html).toMatch(/data-testid="field-0-type"[^>]*>.*<option value="text" selected="">text<\/option>/);
    expect(tagOf(html, "field-0-description")).toContain('value="What to change"');
    expect(html).toMatch(/<input type="checkbox" aria-label="field 1 required"\/>/); // not required: unchecked
    expect(html).toContain('data-testid="add-field"');
  });

  it("human review: each part of the form edits its own property of the node", () => {
    const doc = reviewed();
    const node = doc.nodes.find((n) => n.type === "human");
    if (node?.type !== "human") throw new Error("no human node");
    const act = actions();
    const tree = HumanForm({ node, doc, act });

    const [prompt] = elementsOf(tree, TemplateField);
    expect(prompt?.props).toMatchObject({ nodeId: "review", value: node.prompt });
    prompt?.props.onCommit("Ship it?");
    expect(act.updateNode).toHaveBeenLastCalledWith("review", { prompt: "Ship it?" });

    const [branches] = elementsOf(tree, BranchesEditor);
    expect(branches?.props.branches).toBe(node.branches);
    expect(branches?.props.expressions).toBeFalsy();
    const three = [...node.branches, { id: "escalate", label: "Escalate", condition: "" }];
    branches?.props.onChange(three);
    expect(act.updateNode).toHaveBeenLastCalledWith("review", { branches: three });

    const [fields] = elementsOf(tree, FieldList);
    expect(fields?.props).toMatchObject({ fields: node.fields, descriptions: true });
    const none: Field[] = [];
    fields?.props.onChange(none);
    expect(act.updateNode).toHaveBeenLastCalledWith("review", { fields: none });
  });

  it("human review: a wait limit in minutes, then a choice or a timeout", () => {
    const doc = reviewed();
    const node = doc.nodes.find((n) => n.type === "human");
    if (node?.type !== "human") throw new Error("no human node");
    const act = actions();
    const [limit] = elementsOf(HumanForm({ node, doc, act }), CommitInput);
    expect(limit?.props).toMatchObject({ value: "", testId: "human-timeout" });
    const selectOf = (tree: ReactNode) => elementsOf(tree, SelectField<string>);
    expect(selectOf(HumanForm({ node, doc, act }))).toHaveLength(0);
    limit?.props.onCommit("90");
    expect(act.updateNode).toHaveBeenLastCalledWith("review", { timeoutMs: 5_400_000 });
    limit?.props.onCommit("");
    expect(act.updateNode).toHaveBeenLastCalledWith("review", { timeoutMs: undefined });

    const timed = { ...node, timeoutMs: 1_800_000, timeoutChoice: "approve" };
    const [minutes] = elementsOf(HumanForm({ node: timed, doc, act }), CommitInput);
    expect(minutes?.props.value).toBe("30");
    const [then] = selectOf(HumanForm({ node: timed, doc, act }));
    expect(then?.props.value).toBe("approve");
    expect(then?.props.options.map((o) => o.value)).toEqual(["", "approve", "reject"]);
    then?.props.onChange("");
    expect(act.updateNode).toHaveBeenLastCalledWith("review", { timeoutChoice: undefined });
    expect(minutesToMs("0.5")).toBe(30_000);
    expect(minutesToMs("-1")).toBeUndefined();
    expect(minutesToMs("soon")).toBeUndefined();
  });

  it("workflow settings keep their compact input rows (no description field)", () => {
    const html = renderToStaticMarkup(<Inspector doc={reviewed()} act={actions()} />);
    expect(tagOf(html, "input-0-key")).toContain('value="topic"');
    expect(html).not.toContain("input-0-description");
  });

  it("tool creation during a run: the workflow's policy and the agent's own permission", () => {
    const act = actions();
    const doc = { ...reviewed(), toolCreation: "auto" as const };
    const [policy] = elementsOf(WorkflowInspector({ doc, act }), SelectField<"" | "ask" | "auto">).filter(
      (e) => e.props.testId === "workflow-tool-creation",
    );
    expect(policy?.props.value).toBe("auto");
    policy?.props.onChange("");
    expect(act.updateWorkflow).toHaveBeenCalledWith({ toolCreation: undefined });
    policy?.props.onChange("ask");
    expect(act.updateWorkflow).toHaveBeenCalledWith({ toolCreation: "ask" });

    const html = renderToStaticMarkup(<AgentSpecFields spec={doc.agents[0]!} act={act} />);
    expect(tagOf(html, "agent-create-tools")).not.toContain("checked");
    const checked = renderToStaticMarkup(<AgentSpecFields spec={{ ...doc.agents[0]!, createTools: true }} act={act} />);
    expect(tagOf(checked, "agent-create-tools")).toContain("checked");
  });

  it("model picker: the user's providers and the model in the editor, a plain name field elsewhere", () => {
    const act = actions();
    const spec = { ...reviewed().agents[0]!, model: { provider: "local", model: "alpha-70b" } };
    const plain = renderToStaticMarkup(<AgentSpecFields spec={spec} act={act} />);
    expect(tagOf(plain, "agent-model-model")).toContain('value="alpha-70b"');
    expect(plain).not.toContain("agent-model-provider");
    const picker = renderToStaticMarkup(
      <ModelChoicesProvider value={[{ id: "p1", name: "local", defaultModel: "alpha-70b" }]}>
        <AgentSpecFields spec={spec} act={act} />
      </ModelChoicesProvider>,
    );
    expect(picker).toMatch(/<option value="local" selected="">local<\/option>/);
    expect(picker).toContain("Default provider");
    expect(picker).toContain('data-testid="agent-model-refresh"');
    const router = renderToStaticMarkup(
      <ModelChoicesProvider value={[]}>
        <Inspector
          doc={workflowSchema.parse({ nodes: [{ id: "r", type: "router", mode: "llm" }] })}
          nodeId="r"
          act={act}
        />
      </ModelChoicesProvider>,
    );
    expect(router).toContain('data-testid="router-model"');
  });

  it("a loop edge out of a human review can continue with another of its branches", () => {
    const html = renderToStaticMarkup(<Inspector doc={reviewed()} edgeId="loop" act={actions()} />);
    expect(html).toContain("Continue with");
    expect(html).toContain('<option value="approve">Approve</option>');
  });
});
