import { describe, expect, it } from "vitest";
import type { Workflow, WorkflowInput } from "./schema";
import { agent, doc, fwd, loop } from "./testing";
import { issueSeverity, validate, isRunnable, type ValidationCode, type ValidationContext } from "./validate";

/** Scenario A (article writer) as a compact, valid base document. */
const base = (): WorkflowInput => ({
  name: "Article writer",
  inputs: [{ key: "topic" }],
  outputs: [{ key: "article" }],
  variables: [{ key: "threshold", value: 7 }],
  agents: [
    agent("researcher", { tools: [{ name: "web_search" }], model: { model: "gpt-4o-mini" } }),
    agent("outliner"),
    agent("critic"),
    agent("writer"),
  ],
  nodes: [
    { id: "start", type: "start" },
    { id: "research", type: "agent", agent: "researcher", task: "Research {{inputs.topic}}" },
    { id: "outline", type: "agent", agent: "outliner", task: "Outline from {{nodes.research.output}}. {{feedback}}" },
    {
      id: "evaluate",
      type: "agent",
      agent: "critic",
      task: "Score {{nodes.outline.output}} against {{vars.threshold}}",
      branches: [{ id: "approved" }, { id: "revise" }],
    },
    { id: "write", type: "agent", agent: "writer", task: "Write from {{nodes.outline.output}}" },
    { id: "end", type: "end", outputs: { article: "{{nodes.write.output}}" } },
  ],
  edges: [
    fwd("start", "next", "research"),
    fwd("research", "done", "outline"),
    fwd("outline", "done", "evaluate"),
    fwd("evaluate", "approved", "write"),
    loop("evaluate", "revise", "outline", 3, "continue"),
    fwd("write", "done", "end"),
  ],
});

const ctx: ValidationContext = { tools: ["web_search"], models: [{ model: "gpt-4o-mini" }], savedAgentIds: ["saved1"] };
const run = (input: WorkflowInput, context: ValidationContext = ctx) => validate(doc(input), context);
const codes = (input: WorkflowInput, context?: ValidationContext) => run(input, context).map((i) => i.code);
const edit = (fn: (d: Workflow) => void): WorkflowInput => {
  const d = doc(base());
  fn(d);
  return d;
};
const node = (d: Workflow, id: string) => d.nodes.find((n) => n.id === id) as Workflow["nodes"][number];

describe("validate: the base document", () => {
  it("has no issues", () => {
    expect(run(base())).toEqual([]);
    expect(isRunnable(doc(base()), ctx)).toBe(true);
  });
});

const cases: [string, () => WorkflowInput, ValidationCode[], ValidationContext?][] = [
  [
    "no start",
    () =>
      edit((d) => {
        d.nodes = d.nodes.filter((n) => n.type !== "start");
        d.edges = d.edges.filter((e) => e.source !== "start");
      }),
    ["no_start_node"],
  ],
  [
    "two starts",
    () =>
      edit((d) => {
        d.nodes.push({ id: "start2", type: "start", name: "", join: "all" });
        d.edges.push(fwd("start2", "next", "research"));
      }),
    ["multiple_start_nodes"],
  ],
  [
    "no end",
    () =>
      edit((d) => {
        d.nodes = d.nodes.map((n) =>
          n.id === "end" ? { id: "end", type: "abort", reason: "x", name: "", join: "all" } : n,
        );
      }),
    ["no_end_node", "output_not_written"],
  ],
  [
    "duplicate node id",
    () =>
      edit((d) => {
        d.nodes.push({ ...node(d, "write") });
      }),
    ["duplicate_node_id"],
  ],
  [
    "duplicate edge id",
    () =>
      edit((d) => {
        d.edges.push({ ...fwd("research", "done", "outline"), id: "start-next-research" });
      }),
    ["duplicate_edge_id", "duplicate_edge"],
  ],
  [
    "edge endpoints",
    () =>
      edit((d) => {
        d.edges.push(fwd("ghost", "done", "end"), fwd("write", "done", "nowhere"));
      }),
    ["edge_unknown_source", "edge_unknown_target"],
  ],
  [
    "edge handle",
    () =>
      edit((d) => {
        d.edges.push(fwd("write", "oops", "end"), fwd("end", "next", "write"));
      }),
    ["edge_unknown_handle", "edge_unknown_handle", "forward_cycle"],
  ],
  [
    "edge into start",
    () =>
      edit((d) => {
        d.edges.push(loop("write", "done", "start"));
      }),
    ["edge_into_start", "loop_continue_unwired"],
  ],
  [
    "unreachable",
    () =>
      edit((d) => {
        d.nodes.push({
          id: "lonely",
          type: "agent",
          agent: "writer",
          task: "",
          branches: [{ id: "done", label: "", condition: "" }],
          join: "all",
          name: "",
        });
        d.edges.push(fwd("lonely", "done", "end"));
      }),
    ["unreachable_node"],
  ],
  [
    "cannot reach terminal",
    () =>
      edit((d) => {
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
      }),
    ["cannot_reach_terminal", "unwired_branch", "output_not_written", "unreachable_node", "node_ref_not_upstream"],
  ],
  [
    "forward cycle",
    () =>
      edit((d) => {
        d.edges = d.edges.map((e) => (e.kind === "loop" ? { ...e, kind: "forward" as const } : e));
      }),
    ["forward_cycle", "feedback_without_loop"],
  ],
  [
    "loop without cap or policy",
    () =>
      edit((d) => {
        d.edges = d.edges.map((e) => (e.kind === "loop" ? { ...e, maxIterations: 0, onExhausted: undefined } : e));
      }),
    ["loop_missing_max_iterations", "loop_missing_on_exhausted"],
  ],
  [
    "loop forward",
    () =>
      edit((d) => {
        d.edges.push({ ...loop("research", "done", "write", 2, "abort"), id: "skip" });
      }),
    ["loop_not_backward"],
  ],
  [
    "loop continueWith",
    () =>
      edit((d) => {
        d.edges = d.edges.map((e) => (e.kind === "loop" ? { ...e, continueWith: "revise" } : e));
      }),
    ["loop_continue_invalid"],
  ],
  [
    "loop continuation unwired",
    () =>
      edit((d) => {
        const n = node(d, "evaluate");
        if (n.type === "agent") n.branches.push({ id: "escalate", label: "", condition: "" });
        const e = d.edges.find((x) => x.kind === "loop");
        if (e) e.continueWith = "escalate";
      }),
    ["unwired_branch", "loop_continue_unwired"],
  ],
  [
    "duplicate branch",
    () =>
      edit((d) => {
        const n = node(d, "evaluate");
        if (n.type === "agent") n.branches.push({ id: "revise", label: "", condition: "" });
      }),
    ["duplicate_branch_id"],
  ],
  [
    "no branches",
    () =>
      edit((d) => {
        const n = node(d, "write");
        if (n.type === "agent") n.branches = [];
      }),
    ["no_branches", "edge_unknown_handle"],
  ],
  [
    "router",
    () =>
      edit((d) => {
        d.nodes.push({
          id: "route",
          type: "router",
          mode: "expression",
          prompt: "",
          name: "",
          join: "all",
          branches: [
            { id: "a", label: "", condition: "", expression: "inputs.topic ==" },
            { id: "b", label: "", condition: "" },
            { id: "c", label: "", condition: "", default: true, expression: "true" },
            { id: "d", label: "", condition: "", default: true },
          ],
        });
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
        d.edges.push(fwd("write", "done", "route"), ...["a", "b", "c", "d"].map((h) => fwd("route", h, "end")));
      }),
    ["expression_invalid", "expression_missing", "default_has_expression", "router_multiple_defaults"],
  ],
  [
    "router too small",
    () =>
      edit((d) => {
        d.nodes.push({
          id: "route",
          type: "router",
          mode: "expression",
          prompt: "",
          name: "",
          join: "all",
          branches: [{ id: "only", label: "", condition: "", expression: "true" }],
        });
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
        d.edges.push(fwd("write", "done", "route"), fwd("route", "only", "end"));
      }),
    ["router_too_few_branches", "router_default_missing"],
  ],
  [
    "human review",
    () =>
      edit((d) => {
        d.nodes.push({
          id: "review",
          type: "human",
          name: "",
          join: "all",
          prompt: "Ship {{nodes.write.output}}?",
          timeoutMs: 1000,
          timeoutChoice: "later",
          branches: [
            { id: "ship", label: "Ship", condition: "" },
            { id: "ship", label: "Again", condition: "" },
          ],
          fields: [
            { key: "note", type: "text", description: "", required: false },
            { key: "note", type: "string", description: "", required: true },
          ],
        });
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
        d.edges.push(fwd("write", "done", "review"), fwd("review", "ship", "end"));
      }),
    ["duplicate_branch_id", "duplicate_field", "human_timeout_choice_unknown"],
  ],
  [
    "human review timeout choice without a timeout",
    () =>
      edit((d) => {
        d.nodes.push({
          id: "review",
          type: "human",
          name: "",
          join: "all",
          prompt: "",
          timeoutChoice: "ship",
          branches: [{ id: "ship", label: "", condition: "" }],
          fields: [],
        });
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
        d.edges.push(fwd("write", "done", "review"), fwd("review", "ship", "end"));
      }),
    ["human_timeout_choice_unused"],
  ],
  [
    "human review without choices",
    () =>
      edit((d) => {
        d.nodes.push({ id: "review", type: "human", name: "", join: "all", prompt: "", branches: [], fields: [] });
        d.edges.push(fwd("write", "done", "review"));
      }),
    ["no_branches", "cannot_reach_terminal"],
  ],
  [
    "subflow without a workflow",
    () =>
      edit((d) => {
        d.nodes.push({
          id: "sub",
          type: "subflow",
          name: "",
          join: "all",
          workflowId: " ",
          inputs: { text: "{{nodes.write.output}}" },
        });
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
        d.edges.push(fwd("write", "done", "sub"), fwd("sub", "done", "end"));
      }),
    ["subflow_workflow_missing"],
  ],
  [
    "subflows against the owner's workflows",
    () =>
      edit((d) => {
        d.nodes.push(
          { id: "sub", type: "subflow", name: "", join: "all", workflowId: "wf-gone", inputs: {} },
          {
            id: "sub2",
            type: "subflow",
            name: "",
            join: "all",
            workflowId: "wf-sum",
            inputs: { texte: "{{inputs.topic}}" },
          },
        );
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
        d.edges.push(fwd("write", "done", "sub"), fwd("sub", "done", "sub2"), fwd("sub2", "done", "end"));
      }),
    ["subflow_unknown_workflow", "subflow_unknown_input", "subflow_input_missing"],
    {
      workflows: [
        {
          id: "wf-sum",
          name: "Summariser",
          inputs: [
            { key: "text", required: true },
            { key: "tone", required: false },
          ],
        },
      ],
    },
  ],
  [
    "a subflow pinned to an older version is checked against that version's inputs; a pinned version not saved is reported",
    () =>
      edit((d) => {
        d.nodes.push(
          {
            id: "sub",
            type: "subflow",
            name: "",
            join: "all",
            workflowId: "wf-sum",
            version: 1,
            inputs: { body: "{{inputs.topic}}" },
          },
          { id: "sub2", type: "subflow", name: "", join: "all", workflowId: "wf-sum", version: 7, inputs: {} },
        );
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
        d.edges.push(fwd("write", "done", "sub"), fwd("sub", "done", "sub2"), fwd("sub2", "done", "end"));
      }),
    ["subflow_unknown_version"],
    {
      workflows: [
        {
          id: "wf-sum",
          name: "Summariser",
          version: 3,
          inputs: [{ key: "text", required: true }],
          history: [
            { from: 1, inputs: [{ key: "body", required: true }] },
            { from: 2, inputs: [{ key: "text", required: true }] },
          ],
        },
      ],
    },
  ],
  [
    "a subflow pinned to a version whose inputs are not the newest's",
    () =>
      edit((d) => {
        d.nodes.push({
          id: "sub",
          type: "subflow",
          name: "",
          join: "all",
          workflowId: "wf-sum",
          version: 2,
          inputs: { body: "{{inputs.topic}}" },
        });
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
        d.edges.push(fwd("write", "done", "sub"), fwd("sub", "done", "end"));
      }),
    ["subflow_unknown_input", "subflow_input_missing"],
    {
      workflows: [
        {
          id: "wf-sum",
          name: "Summariser",
          version: 3,
          inputs: [{ key: "body", required: true }],
          history: [
            { from: 1, inputs: [{ key: "body", required: true }] },
            { from: 2, inputs: [{ key: "text", required: true }] },
            { from: 3, inputs: [{ key: "body", required: true }] },
          ],
        },
      ],
    },
  ],
  [
    "subflow input templates are checked",
    () =>
      edit((d) => {
        d.nodes.push({
          id: "sub",
          type: "subflow",
          name: "",
          join: "all",
          workflowId: "wf-sum",
          inputs: { text: "{{inputs.nope}}" },
        });
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
        d.edges.push(fwd("write", "done", "sub"), fwd("sub", "done", "end"));
      }),
    ["unknown_input_ref"],
    { workflows: [{ id: "wf-sum", name: "Summariser", inputs: [{ key: "text", required: true }] }] },
  ],
  [
    "error branch unwired, clashing with a declared branch",
    () =>
      edit((d) => {
        const n = node(d, "evaluate");
        if (n.type === "agent") n.branches.push({ id: "error", label: "", condition: "" });
        n.onError = { onExhausted: "error_branch" };
      }),
    ["error_branch_clash", "unwired_branch"],
  ],
  [
    "fallbacks without value or outcome",
    () =>
      edit((d) => {
        node(d, "evaluate").onError = { onExhausted: "fallback" };
        node(d, "research").onError = { onExhausted: "fallback", fallback: "none", fallbackBranch: "nope" };
      }),
    ["fallback_missing", "fallback_branch_missing", "fallback_branch_unknown"],
  ],
  [
    "retries that never retry, a policy on a start node",
    () =>
      edit((d) => {
        node(d, "research").onError = {
          onExhausted: "fail",
          retry: { maxAttempts: 3, initialDelayMs: 10, backoffFactor: 2, on: [] },
        };
        node(d, "write").onError = {
          onExhausted: "fail",
          retry: { maxAttempts: 1, initialDelayMs: 10, backoffFactor: 2, on: ["timeout"] },
        };
        node(d, "start").onError = { onExhausted: "fail" };
      }),
    ["retry_no_classes", "retry_single_attempt", "error_policy_ignored"],
  ],
  [
    "agents",
    () =>
      edit((d) => {
        d.agents.push(
          { ...d.agents[0]!, key: "writer" },
          { ...d.agents[0]!, key: "ref", savedAgentId: "missing", tools: [] },
        );
        const n = node(d, "write");
        if (n.type === "agent") n.agent = "nobody";
      }),
    ["duplicate_agent_key", "unknown_agent", "unknown_saved_agent", "unused_agent"],
  ],
  [
    "tools and models",
    () =>
      edit((d) => {
        d.agents[0]!.tools.push({ name: "mystery" }, { name: "to_build", placeholder: true });
        d.agents[1]!.model = { provider: "local", model: "llama9" };
      }),
    ["unknown_tool", "tool_placeholder", "unknown_model"],
  ],
  [
    "orchestrator",
    () =>
      edit((d) => {
        d.nodes.push(
          {
            id: "boss",
            type: "orchestrator",
            agent: "writer",
            task: "",
            workers: ["writer", "ghost", "critic", "critic"],
            maxHandoffs: 3,
            name: "",
            join: "all",
          },
          {
            id: "boss2",
            type: "orchestrator",
            agent: "writer",
            task: "",
            workers: [],
            maxHandoffs: 3,
            name: "",
            join: "all",
          },
        );
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
        d.edges.push(fwd("write", "done", "boss"), fwd("boss", "done", "boss2"), fwd("boss2", "done", "end"));
      }),
    ["orchestrator_self_worker", "orchestrator_unknown_worker", "duplicate_worker", "orchestrator_no_workers"],
  ],
  [
    "io keys",
    () =>
      edit((d) => {
        d.inputs.push({ ...d.inputs[0]! });
        d.outputs.push({ ...d.outputs[0]! }, { key: "summary", type: "string", description: "", required: true });
        d.variables.push({ ...d.variables[0]! });
        const e = node(d, "end");
        if (e.type === "end") e.outputs.extra = "x";
      }),
    [
      "duplicate_input_key",
      "duplicate_output_key",
      "duplicate_variable_key",
      "output_not_written",
      "end_output_undeclared",
    ],
  ],
  [
    "templates",
    () =>
      edit((d) => {
        const n = node(d, "write");
        if (n.type === "agent")
          n.task =
            "{{inputs.nope}} {{vars.nope}} {{nodes.ghost.output}} {{nodes.end.output}} {{nodes.evaluate.output}} {{feedback}} {{inputs.topic";
        d.agents[0]!.instructions = "Help with {{inputs.topic}} {{inputs.other}}";
      }),
    [
      "template_syntax",
      "unknown_input_ref",
      "unknown_variable_ref",
      "unknown_node_ref",
      "node_ref_not_upstream",
      "feedback_without_loop",
      "unknown_input_ref",
    ],
  ],
  [
    "loop-only reference",
    () =>
      edit((d) => {
        const n = node(d, "outline");
        if (n.type === "agent") n.task = "Fix per {{nodes.evaluate.output}}";
      }),
    ["node_ref_loop_only"],
  ],
  [
    "limit above the server's ceiling",
    () =>
      edit((d) => {
        d.limits.maxSteps = 1e9;
      }),
    ["limit_above_ceiling"],
    { ...ctx, ceilings: { maxSteps: 1000, maxIterations: 100, runTimeoutMs: 21_600_000, maxTurnsPerVisit: 50 } },
  ],
  [
    "map: no items, no body, a retry",
    () =>
      withMap({
        items: "  ",
        body: { type: "agent", agent: "", task: "{{item}}" },
        onError: {
          onExhausted: "fail",
          retry: { maxAttempts: 2, initialDelayMs: 10, backoffFactor: 2, on: ["timeout"] },
        },
      }),
    ["map_items_missing", "map_body_missing", "map_retry_unsupported"],
  ],
  [
    "map: items that cannot be a list, {{item}} outside a map",
    () =>
      edit((d) => {
        addMap(d, { items: "{{inputs.topic}}" });
        const n = node(d, "write");
        if (n.type === "agent") n.task = "Write about {{item}}";
      }),
    ["map_items_not_list", "item_outside_map"],
  ],
];

/** The base document with a map node "each" between write and end (its fields from `extra`). */
function addMap(d: Workflow, extra: Record<string, unknown>): void {
  d.nodes.push({
    id: "each",
    type: "map",
    name: "",
    join: "all",
    items: "{{nodes.research.output}}",
    body: { type: "agent", agent: "writer", task: "Sum up {{item}}" },
    concurrency: 4,
    onItemError: "fail",
    ...extra,
  } as Workflow["nodes"][number]);
  d.edges = d.edges.filter((e) => e.id !== "write-done-end");
  d.edges.push(fwd("write", "done", "each"), fwd("each", "done", "end"));
}
const withMap = (extra: Record<string, unknown>) => edit((d) => addMap(d, extra));

describe("validate: map nodes", () => {
  it("a map over an upstream agent's answer, its body reading {{item}}, has no issues", () => {
    expect(run(withMap({}))).toEqual([]);
  });

  const notList = (items: string, d: Workflow = doc(withMap({ items }))) =>
    validate(d, ctx)
      .filter((i) => i.code === "map_items_not_list")
      .map((i) => i.message);
  it("knows statically when the items cannot be a list", () => {
    expect(notList("Sources: {{nodes.research.output}}")).toEqual([
      'Map node "each": its items mix text and tags, which renders text, not a list.',
    ]);
    expect(notList("{{vars.threshold}}")).toEqual([
      'Map node "each": its items read variable "threshold", which holds a number, not a list.',
    ]);
    expect(notList("just words")).toHaveLength(1);
  });

  it("accepts what may be a list: a json input, a field of an output, a JSON list written out", () => {
    const d = doc(withMap({ items: "{{inputs.list}}" }));
    d.inputs.push({ key: "list", type: "json", description: "", required: true });
    expect(notList("", d)).toEqual([]);
    expect(notList('["a", "b"]')).toEqual([]);
    expect(notList("{{nodes.research.output.sources}}")).toEqual([]);
  });

  it("an agent the body names must exist, and a tool body's tool is checked like a tool node's", () => {
    expect(codes(withMap({ body: { type: "agent", agent: "ghost", task: "{{item}}" } }))).toContain("unknown_agent");
    expect(codes(withMap({ body: { type: "tool", tool: { name: "mystery" }, args: { q: "{{item}}" } } }))).toContain(
      "unknown_tool",
    );
  });
});
// the codes the cases expect (each case's own test checks that its codes are reported)
const covered = new Set<ValidationCode>(cases.flatMap(([, , expected]) => expected));

describe("validate: one stable code per rule", () => {
  for (const [name, build, expected, context] of cases) {
    it(name, () => {
      const got = codes(build(), context);
      expect(got).toEqual(expect.arrayContaining(expected));
      expect(
        got.filter((c) => !expected.includes(c)),
        `unexpected codes for ${name}`,
      ).toEqual([]);
    });
  }

  it("covers every code with a case", () => {
    expect(Object.keys(issueSeverity).filter((c) => !covered.has(c as ValidationCode))).toEqual([]);
  });
});

describe("validate: messages and locations", () => {
  it("explains a node that cannot reach a terminal", () => {
    const issues = run(
      edit((d) => {
        d.edges = d.edges.filter((e) => e.id !== "write-done-end");
      }),
    );
    expect(issues).toContainEqual({
      code: "cannot_reach_terminal",
      severity: "error",
      nodeId: "write",
      message: 'Node "write" cannot reach an end or abort node.',
    });
    expect(issues).toContainEqual({
      code: "unwired_branch",
      severity: "error",
      nodeId: "write",
      branchId: "done",
      message:
        'Branch "done" of node "write" is not wired; connect it to a node, or to an end or abort node to end the path there.',
    });
  });

  it("explains forward cycles and loop edges precisely", () => {
    const cycle = run(
      edit((d) => {
        d.edges = d.edges.map((e) => (e.kind === "loop" ? { ...e, kind: "forward" as const } : e));
      }),
    );
    expect(cycle[0]?.message).toBe(
      'Edge "evaluate-revise-outline" from "evaluate" back to "outline" closes a cycle of forward edges (outline → evaluate → outline); make it a loop edge with maxIterations and onExhausted.',
    );
    const back = run(
      edit((d) => {
        d.edges.push({ ...loop("research", "done", "write", 2, "abort"), id: "skip" });
      }),
    );
    expect(back).toEqual([
      {
        code: "loop_not_backward",
        severity: "error",
        edgeId: "skip",
        nodeId: "research",
        message:
          'Loop edge "skip" goes from "research" to "write", which is not upstream of "research"; make it a forward edge.',
      },
    ]);
  });

  it("locates template references by node and field", () => {
    const issues = run(
      edit((d) => {
        const n = node(d, "research");
        if (n.type === "agent") n.task = "On {{nodes.write.output}}";
      }),
    );
    expect(issues).toEqual([
      {
        code: "node_ref_not_upstream",
        severity: "error",
        nodeId: "research",
        field: "task",
        message: 'Node "research" (task) reads node "write", which is not upstream of it.',
      },
    ]);
  });

  it("reports edge handles with the allowed outcomes", () => {
    const issues = run(
      edit((d) => {
        d.edges.push(fwd("write", "oops", "end"));
      }),
    );
    expect(issues.map((i) => i.message)).toEqual([
      'Edge "write-oops-end" leaves node "write" from "oops", which is not one of its outcomes (done).',
    ]);
  });

  it("skips registry checks without a context, but always refuses placeholders", () => {
    const input = edit((d) => {
      d.agents[0]!.tools.push({ name: "mystery" }, { name: "to_build", placeholder: true });
    });
    expect(codes(input, {})).toEqual(["tool_placeholder"]);
    expect(codes(input)).toEqual(["unknown_tool", "tool_placeholder"]);
  });

  it("lets a tool node leave its error outcome unwired and an end node write only declared outputs", () => {
    const input = edit((d) => {
      d.nodes.push({
        id: "save",
        type: "tool",
        tool: { name: "web_search" },
        args: { q: "{{nodes.write.output}}", deep: ["{{inputs.topic}}"] },
        sideEffect: false,
        name: "",
        join: "all",
      });
      d.edges = d.edges.filter((e) => e.id !== "write-done-end");
      d.edges.push(fwd("write", "done", "save"), fwd("save", "done", "end"));
    });
    expect(run(input)).toEqual([]);
  });
});
