import { isValidElement, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { workflowSchema, type NodeOf, type Workflow } from "@/lib/workflow/schema";
import type { SubflowTargets } from "../subflow-targets";
import { SubflowTargetsProvider } from "../subflow-targets-context";
import { CommitInput, SelectField } from "./fields";
import { Inspector } from "./inspector";
import { SubflowFields, withInput, workflowOptions } from "./subflow-form";
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

const subflows: SubflowTargets = {
  currentId: "wf_self",
  targets: [
    {
      id: "wf_b",
      name: "Brainstorm",
      version: null,
      inputs: [{ key: "seed", type: "string", required: true, description: "" }],
      outputs: [],
    },
    { id: "wf_self", name: "Blog post", version: 4, inputs: [], outputs: [] },
    {
      id: "wf_s",
      name: "Summarise",
      version: 3,
      inputs: [
        { key: "topic", type: "string", required: true, description: "What to summarise" },
        { key: "words", type: "number", required: false, description: "" },
      ],
      outputs: [{ key: "summary" }, { key: "title" }],
    },
  ],
};

/** Start → sub (subflow) → end, with the run input `subject`. */
function parent(sub: Partial<NodeOf<"subflow">> = {}): Workflow {
  return workflowSchema.parse({
    inputs: [{ key: "subject" }],
    nodes: [
      { id: "start", type: "start" },
      { id: "sub", type: "subflow", name: "Summary", ...sub },
      { id: "end", type: "end" },
    ],
    edges: [
      { id: "e1", source: "start", sourceHandle: "next", target: "sub" },
      { id: "e2", source: "sub", sourceHandle: "done", target: "end" },
    ],
  });
}

const subNode = (doc: Workflow) => {
  const node = doc.nodes.find((n) => n.type === "subflow");
  if (node?.type !== "subflow") throw new Error("no subflow node");
  return node;
};

const render = (doc: Workflow, value: SubflowTargets | undefined = subflows) =>
  renderToStaticMarkup(
    <SubflowTargetsProvider value={value}>
      <Inspector doc={doc} nodeId="sub" act={actions()} />
    </SubflowTargetsProvider>,
  );

describe("workflowOptions", () => {
  it("lists the other workflows by name, then this one marked as running itself, then an unknown chosen id", () => {
    expect(workflowOptions(subflows, "wf_gone")).toEqual([
      { value: "", label: "Choose a workflow…" },
      { value: "wf_b", label: "Brainstorm (nothing saved yet)" },
      { value: "wf_s", label: "Summarise" },
      { value: "wf_self", label: "Blog post (this workflow — runs itself; nesting stops at 5)" },
      { value: "wf_gone", label: "Unknown workflow (wf_gone)" },
    ]);
    expect(workflowOptions(undefined, "")).toEqual([{ value: "", label: "Choose a workflow…" }]);
  });
});

describe("withInput", () => {
  it("sets a key's template, and an empty template leaves the key out", () => {
    expect(withInput({ a: "1" }, "b", "{{inputs.x}}")).toEqual({ a: "1", b: "{{inputs.x}}" });
    expect(withInput({ a: "1", b: "2" }, "a", "")).toEqual({ b: "2" });
  });
});

describe("SubflowForm", () => {
  it("no workflow chosen: the picker on its placeholder and a hint, no rows, no link", () => {
    const html = render(parent());
    expect(html).toContain("subflow · <code>sub</code>");
    expect(html).toMatch(
      /data-testid="subflow-workflow"[^>]*>.*<option value="" selected="">Choose a workflow…<\/option>/,
    );
    expect(html).toContain("Choose a workflow to map its inputs.");
    expect(html).not.toContain("subflow-open");
    expect(html).not.toContain('data-testid="subflow-input-');
  });

  it("a chosen workflow: one row per input field (key, type, required, description, template), its outputs and a link to open it", () => {
    const html = render(parent({ workflowId: "wf_s", inputs: { topic: "{{inputs.subject}}" } }));
    expect(html).toMatch(/<option value="wf_s" selected="">Summarise<\/option>/);
    expect(tagOf(html, "subflow-open")).toContain('href="/workflows/wf_s/edit"');
    expect(html).toContain(">Open workflow</a>");
    expect(html).toMatch(
      /data-testid="subflow-input-topic".*<code[^>]*>topic<\/code><span[^>]*>string<\/span><span[^>]*>required<\/span>.*What to summarise/,
    );
    expect(html).toMatch(
      /<textarea[^>]*data-testid="subflow-input-topic-value"[^>]*>\{\{inputs\.subject\}\}<\/textarea>/,
    );
    expect(html).toMatch(/data-testid="subflow-input-words".*<span[^>]*>number<\/span><\/div>/); // optional: no required marker
    expect(html).toMatch(/<textarea[^>]*data-testid="subflow-input-words-value"[^>]*><\/textarea>/);
    expect(html).toContain("{{nodes.sub.output.summary}}");
    expect(html).toContain("{{nodes.sub.output.title}}");
    expect(tagOf(html, "subflow-version")).toContain('placeholder="newest: v3"');
    expect(html).not.toContain("subflow-note");
  });

  it("a version pinned: the rows and outputs of that version's fields; a pinned version not saved keeps the newest's rows under its note", () => {
    const history = {
      ...subflows,
      targets: subflows.targets.map((t) =>
        t.id === "wf_s"
          ? {
              ...t,
              history: [
                {
                  from: 1,
                  inputs: [{ key: "text", type: "string" as const, required: true, description: "" }],
                  outputs: [{ key: "gist" }],
                },
                { from: 2, inputs: t.inputs, outputs: t.outputs },
              ],
            }
          : t,
      ),
    };
    const html = render(parent({ workflowId: "wf_s", version: 1, inputs: { text: "{{inputs.subject}}" } }), history);
    expect(html).toContain('data-testid="subflow-input-text"');
    expect(html).not.toContain('data-testid="subflow-input-topic"');
    expect(html).not.toContain("subflow-extra-text");
    expect(html).toContain("{{nodes.sub.output.gist}}");
    expect(html).not.toContain("{{nodes.sub.output.summary}}");
    const unsaved = render(parent({ workflowId: "wf_s", version: 9 }), history);
    expect(unsaved).toContain("Version 9 is not saved; its newest is v3.");
    expect(unsaved).toContain('data-testid="subflow-input-topic"');
  });

  it("flags mapped keys the workflow does not declare, each with a remove button", () => {
    const html = render(parent({ workflowId: "wf_s", inputs: { topic: "x", colour: "{{inputs.subject}}" } }));
    expect(html).toContain('data-testid="subflow-extra-colour"');
    expect(html).toContain("not an input of Summarise");
    expect(html).toContain('data-testid="subflow-extra-colour-remove"');
    expect(html).not.toContain('data-testid="subflow-extra-topic"');
  });

  it("says to save a version first when the workflow has none, and when a pinned version is not saved", () => {
    expect(render(parent({ workflowId: "wf_b" }))).toContain(
      "Save a version of it first: subflows run saved versions.",
    );
    expect(render(parent({ workflowId: "wf_s", version: 7 }))).toContain("Version 7 is not saved; its newest is v3.");
    expect(render(parent({ workflowId: "wf_gone" }))).toContain(
      "This workflow does not exist (or is not yours); choose another.",
    );
  });

  it("each part edits its own property: choosing a workflow drops the pin; a field's template sets that input; remove drops a key", () => {
    const doc = parent({ workflowId: "wf_s", version: 2, inputs: { topic: "x", colour: "red" } });
    const node = subNode(doc);
    const act = actions();
    const tree = SubflowFields({ node, doc, act, subflows });

    const [picker] = elementsOf(tree, SelectField<string>);
    expect(picker?.props.value).toBe("wf_s");
    picker?.props.onChange("wf_b");
    expect(act.updateNode).toHaveBeenLastCalledWith("sub", { workflowId: "wf_b", version: undefined });

    const [version, timeout] = elementsOf(tree, CommitInput);
    expect(version?.props).toMatchObject({ value: "2", testId: "subflow-version" });
    version?.props.onCommit("");
    expect(act.updateNode).toHaveBeenLastCalledWith("sub", { version: undefined });
    version?.props.onCommit("3");
    expect(act.updateNode).toHaveBeenLastCalledWith("sub", { version: 3 });
    timeout?.props.onCommit("10");
    expect(act.updateNode).toHaveBeenLastCalledWith("sub", { timeoutMs: 600_000 });

    const templates = elementsOf(tree, TemplateField);
    expect(templates.map((t) => [t.props.ariaLabel, t.props.value, t.props.nodeId])).toEqual([
      ["Input topic", "x", "sub"],
      ["Input words", "", "sub"],
      ["Input colour", "red", "sub"],
    ]);
    templates[1]?.props.onCommit("{{inputs.subject}}");
    expect(act.updateNode).toHaveBeenLastCalledWith("sub", {
      inputs: { topic: "x", colour: "red", words: "{{inputs.subject}}" },
    });
    templates[0]?.props.onCommit("");
    expect(act.updateNode).toHaveBeenLastCalledWith("sub", { inputs: { colour: "red" } });
  });

  it("the remove button of an undeclared key drops it from the inputs", () => {
    const doc = parent({ workflowId: "wf_s", inputs: { topic: "x", colour: "red" } });
    const act = actions();
    const remove = findByTestId(
      SubflowFields({ node: subNode(doc), doc, act, subflows }),
      "subflow-extra-colour-remove",
    );
    expect(remove).toBeDefined();
    remove?.props.onClick?.();
    expect(act.updateNode).toHaveBeenLastCalledWith("sub", { inputs: { topic: "x" } });
  });
});

/** The element carrying `data-testid={testId}` in a (shallow) element tree. */
function findByTestId(tree: ReactNode, testId: string): ReactElement<{ onClick?: () => void }> | undefined {
  if (Array.isArray(tree)) return tree.map((t: ReactNode) => findByTestId(t, testId)).find(Boolean);
  if (!isValidElement<{ children?: ReactNode; "data-testid"?: string }>(tree)) return undefined;
  if (tree.props["data-testid"] === testId) return tree as ReactElement<{ onClick?: () => void }>;
  return findByTestId(tree.props.children, testId);
}
