import { afterAll, describe, expect, it } from "vitest";
import type { NodeOf, Workflow } from "@/lib/workflow/schema";
import { validate } from "@/lib/workflow/validate";
import { buildFromDesign, buildFromEdits, type BuildEnv } from "./build";
import { REPAIR_KINDS, summariseFixes, type LocalFix, type RepairKind } from "./fixes";
import { article, majority, refund } from "./fixtures/bases";
import { CORPUS_CONTEXT, baseWorkflow } from "./fixtures/corpus";
import { agent, answer, edges, end, mapStep, router, start, step } from "./fixtures/helpers";
import { KIND_NAMES } from "./kinds";
import { readDesignAnswer } from "./read";
import type { DesignAnswer, EditOperation } from "./schemas";

/**
 * One test per kind of deterministic repair (fixes.ts): each builds an answer broken in that one
 * way and checks the fix was recorded, what it did, and that the result validates with no model call.
 * The last test checks every repair kind has its test here.
 */

const env: BuildEnv = { kinds: KIND_NAMES, context: CORPUS_CONTEXT };
const tools = CORPUS_CONTEXT.tools.map((t) => t.name);
const proven = new Set<RepairKind>();

const errors = (wf: Workflow | undefined) =>
  validate(wf!, { tools }).filter((i) => i.severity === "error" && i.code !== "tool_placeholder");

/** Builds `a`; asserts it ends valid and that a fix of `kind` was made; returns the fixes of that kind and the workflow. */
function built(a: DesignAnswer, kind: RepairKind, context = env) {
  const b = buildFromDesign(a, context);
  expect(b.blocking, JSON.stringify(b.blocking)).toEqual([]);
  expect(errors(b.workflow)).toEqual([]);
  const mine = b.fixes.filter((f) => f.repair === kind);
  expect(mine.length, `no ${kind} fix in ${JSON.stringify(b.fixes)}`).toBeGreaterThan(0);
  proven.add(kind);
  return { wf: b.workflow!, fixes: mine, all: b.fixes };
}

function edited(base: Workflow, operations: EditOperation[], kind: RepairKind) {
  const b = buildFromEdits(base, { summary: "edit", operations }, env);
  expect(b.blocking, JSON.stringify(b.blocking)).toEqual([]);
  expect(errors(b.workflow)).toEqual([]);
  const mine = b.fixes.filter((f) => f.repair === kind);
  expect(mine.length, `no ${kind} fix in ${JSON.stringify(b.fixes)}`).toBeGreaterThan(0);
  proven.add(kind);
  return { wf: b.workflow!, fixes: mine };
}

const clone = <T>(v: T): T => structuredClone(v);
const node = (wf: Workflow, id: string) => wf.nodes.find((n) => n.id === id);
const edgesOf = (wf: Workflow) =>
  wf.edges.map((e) => `${e.source}.${e.sourceHandle}${e.kind === "loop" ? "~" : ">"}${e.target}`);

describe("deterministic repairs, one kind at a time", () => {
  it("answer_unwrapped: reads a design wrapped in another object", () => {
    const read = readDesignAnswer({ weft_design: JSON.stringify(article) });
    expect(read.ok && read.fixes.map((f) => f.repair)).toEqual(["answer_unwrapped"]);
    expect(read.ok && buildFromDesign(read.answer, env).blocking).toEqual([]);
    proven.add("answer_unwrapped");
  });

  it("id_renamed: makes ids identifiers and unique, references following", () => {
    const a = clone(article);
    a.design.nodes[1]!.id = "Fact research!";
    for (const e of a.design.edges) if (e.from === "research") e.from = "Fact research!";
    a.design.edges[0]!.to = "Fact research!";
    a.design.nodes[2]!.task = "Outline from {{nodes.Fact research!.output}}";
    const { wf, fixes } = built(a, "id_renamed");
    expect(fixes[0]!.message).toContain('"Fact research!"');
    expect(node(wf, "Fact_research")).toBeDefined();
    expect(edgesOf(wf)).toContain("start.next>Fact_research");
  });

  it("field_dropped: drops fields another kind has", () => {
    const a = clone(article);
    a.design.nodes[1]!.outputs = { article: "x" };
    a.design.nodes[5]!.task = "finish";
    const { wf, fixes } = built(a, "field_dropped");
    expect(fixes.map((f) => f.message).join(" ")).toMatch(/dropped outputs/);
    expect(node(wf, "research")).not.toHaveProperty("outputs");
  });

  it("field_moved: a router's task is its prompt", () => {
    const a = clone(refund);
    const triage = a.design.nodes.find((n) => n.kind === "router")!;
    triage.task = triage.prompt;
    delete triage.prompt;
    const { wf } = built(a, "field_moved");
    expect((node(wf, triage.id) as NodeOf<"router">).prompt).toBe(triage.task);
  });

  it("kind_mapped: an unknown kind becomes the kind whose fields the node has, else by its name", () => {
    const a = clone(article);
    a.design.nodes[4]!.kind = "aggregator_v2";
    a.design.nodes[5]!.kind = "finish";
    const { wf, fixes } = built(a, "kind_mapped");
    expect(node(wf, "write")!.type).toBe("agent");
    expect(node(wf, "end")!.type).toBe("end");
    expect(fixes.map((f) => f.message).join(" ")).toMatch(/by the fields it has/);
  });

  it("reference_resolved: an agent, an edge end and a branch named by a near spelling", () => {
    const a = clone(article);
    a.design.nodes[4]!.agent = "Writer";
    a.design.edges[5]!.from = "writ";
    a.design.edges[3]!.branch = "Approved";
    const { wf, fixes } = built(a, "reference_resolved");
    expect((node(wf, "write") as NodeOf<"agent">).agent).toBe("writer");
    expect(edgesOf(wf)).toEqual(expect.arrayContaining(["write.done>end", "review.approved>write"]));
    expect(fixes).toHaveLength(3);
  });

  it("reference_dropped: a saved agent that does not exist, a template reading a node that does not exist", () => {
    const a = clone(article);
    a.profile.agents[0]!.reuse = "no-such-agent";
    a.design.nodes[4]!.task = "Write from {{nodes.zzz_qq.output}} and {{nodes.outline.output}}";
    const { wf, fixes } = built(a, "reference_dropped", { ...env, validation: { savedAgentIds: [] } });
    expect(wf.agents[0]!.savedAgentId).toBeUndefined();
    expect((node(wf, "write") as NodeOf<"agent">).task).toBe("Write from  and {{nodes.outline.output}}");
    expect(fixes).toHaveLength(2);
  });

  it("agent_created: an agent no one declared is made from the node's task", () => {
    const a = clone(article);
    a.profile.agents = a.profile.agents.filter((x) => x.key !== "critic");
    const { wf } = built(a, "agent_created");
    const critic = wf.agents.find((x) => x.key === "critic")!;
    expect(critic.instructions).toContain("Check this outline");
  });

  it("node_created: agents but no node doing work become one step each, in order", () => {
    const a = clone(article);
    a.design.nodes = [start(), end({ article: "" })];
    a.design.edges = [];
    const { wf } = built(a, "node_created");
    expect(edgesOf(wf)).toEqual(
      expect.arrayContaining([
        "researcher.done>outliner",
        "outliner.done>critic",
        "critic.done>writer",
        "writer.done>end",
      ]),
    );
  });

  it("start_added / end_added: a design without start or end gets them, wired to its first and last steps", () => {
    const a = clone(majority);
    a.design.nodes = a.design.nodes.filter((n) => n.kind !== "start" && n.kind !== "end");
    a.design.edges = a.design.edges.filter((e) => e.from !== "start" && e.to !== "end");
    const { wf } = built(a, "start_added");
    built(a, "end_added");
    expect(edgesOf(wf)).toEqual(
      expect.arrayContaining(["start.next>solve_a", "start.next>solve_b", "start.next>solve_c", "vote.done>end"]),
    );
  });

  it("start_merged: extra start nodes are merged into the first", () => {
    const a = clone(majority);
    a.design.nodes.push({ id: "begin", kind: "start" });
    a.design.edges = a.design.edges.map((e) => (e.to === "solve_c" ? { ...e, from: "begin" } : e));
    const { wf } = built(a, "start_merged");
    expect(wf.nodes.filter((n) => n.type === "start")).toHaveLength(1);
    expect(edgesOf(wf)).toContain("start.next>solve_c");
  });

  it("edge_dropped: an edge to nothing like any node is dropped", () => {
    const a = clone(article);
    a.design.edges.push({ from: "write", to: "qqq_xyz_unrelated" });
    const { fixes } = built(a, "edge_dropped");
    expect(fixes[0]!.code).toBe("dangling_edge");
  });

  it("node_removed: an end nothing leads to is removed while another end is reached", () => {
    const a = clone(article);
    a.design.nodes.push({ id: "spare_end", kind: "end", outputs: {} });
    const { wf } = built(a, "node_removed");
    expect(node(wf, "spare_end")).toBeUndefined();
  });

  it("node_wired / branch_added / condition_filled: unreachable siblings of a router's target become routes with conditions", () => {
    const a = clone(refund);
    const triage = a.design.nodes.find((n) => n.kind === "router")!;
    triage.branches = triage.branches!.slice(0, 1);
    a.design.edges = a.design.edges.filter((e) => e.from !== triage.id || e.branch === triage.branches![0]!.id);
    const { wf } = built(a, "node_wired");
    const branches = (node(wf, triage.id) as NodeOf<"router">).branches;
    expect(branches).toHaveLength(2);
    expect(branches[1]!.condition).toMatch(/^Choose this when next: /);
    built(a, "branch_added");
    built(a, "condition_filled");
  });

  it('branch_added: a router short of branches with nothing to route to gets an "otherwise" that ends the run', () => {
    const a = answer({
      summary: "route",
      inputs: ["q"],
      outputs: ["r"],
      patterns: ["routing"],
      agents: [agent("h", "helper")],
      nodes: [
        start(),
        router("pick", "Which? {{inputs.q}}", [["help", "needs help"]]),
        step("do", "h", "Help with {{inputs.q}}"),
        end({ r: "{{nodes.do.output}}" }),
      ],
      edges: edges("start>pick pick.help>do do>end"),
    });
    const { wf } = built(a, "branch_added");
    expect((node(wf, "pick") as NodeOf<"router">).branches.map((b) => b.id)).toEqual(["help", "otherwise"]);
    expect(edgesOf(wf)).toContain("pick.otherwise>end");
  });

  it("data_wired: a node reading a node that is on no path before it gets an edge from it", () => {
    const a = answer({
      summary: "two facts, one summary",
      inputs: ["q"],
      outputs: ["s"],
      patterns: ["parallel"],
      agents: [agent("a", "finder"), agent("b", "checker"), agent("c", "summariser")],
      nodes: [
        start(),
        step("find", "a", "Find {{inputs.q}}"),
        step("check", "b", "Check {{inputs.q}}"),
        step("sum", "c", "Summarise {{nodes.find.output}} and {{nodes.check.output}}"),
        end({ s: "{{nodes.sum.output}}" }),
      ],
      edges: edges("start>find start>check find>sum sum>end"),
    });
    const { wf } = built(a, "data_wired");
    expect(edgesOf(wf)).toContain("check.done>sum");
  });

  it("outcome_wired: a branch nothing leaves from ends in a terminal (an unreachable one named like it wires it instead)", () => {
    const moderate = (terminals: DesignAnswer["design"]["nodes"]) =>
      answer({
        summary: "moderate",
        inputs: ["post"],
        outputs: ["out"],
        patterns: ["routing"],
        agents: [agent("p", "polisher")],
        nodes: [
          start(),
          router("check", "Is {{inputs.post}} safe?", [
            ["safe", "safe"],
            ["rejected", "unsafe"],
          ]),
          step("polish", "p", "Polish {{inputs.post}}"),
          end({ out: "{{nodes.polish.output}}" }),
          ...terminals,
        ],
        edges: edges("start>check check.safe>polish polish>end"),
      });
    expect(edgesOf(built(moderate([]), "outcome_wired").wf)).toContain("check.rejected>end");
    expect(edgesOf(built(moderate([{ id: "reject", kind: "abort", reason: "unsafe" }]), "node_wired").wf)).toContain(
      "check.rejected>reject",
    );
  });

  it("loop_made / loop_capped: a forward cycle becomes a loop edge, capped by the max_iterations variable", () => {
    const a = clone(article);
    const back = a.design.edges.find((e) => e.loop)!;
    delete back.loop;
    delete back.maxIterations;
    delete back.onExhausted;
    a.design.variables = [{ key: "max_iterations", value: 5 }];
    const { wf } = built(a, "loop_made");
    expect(wf.edges.find((e) => e.kind === "loop")).toMatchObject({
      source: "review",
      target: "outline",
      maxIterations: 3,
    });
    const uncapped = clone(article);
    delete uncapped.design.edges.find((e) => e.loop)!.maxIterations;
    uncapped.design.variables = [{ key: "max_iterations", value: 5 }];
    expect(built(uncapped, "loop_capped").wf.edges.find((e) => e.kind === "loop")!.maxIterations).toBe(5);
  });

  it("loop_fixed: a loop edge that does not go back is made forward; a node that can only loop gets a way out", () => {
    const a = clone(article);
    a.design.edges.find((e) => e.from === "write")!.loop = true;
    const { wf } = built(a, "loop_fixed");
    expect(wf.edges.find((e) => e.source === "write")!.kind).toBe("forward");
    const only = answer({
      summary: "draft",
      inputs: ["q"],
      outputs: ["s"],
      patterns: ["fsm-traceback"],
      agents: [agent("a", "drafter"), agent("b", "summariser")],
      nodes: [
        start(),
        step("sum", "b", "Sum {{inputs.q}}"),
        step("draft", "a", "Draft {{inputs.q}}", [["revise", "again"]]),
        end({ s: "{{nodes.sum.output}}" }),
      ],
      edges: edges("start>sum sum>end start>draft draft.revise~draft"),
    });
    const stuck = built(only, "branch_added").wf;
    expect(edgesOf(stuck)).toContain("draft.finish>end");
  });

  it("output_written / field_declared: outputs nobody writes are written, reads of undeclared inputs declare them", () => {
    const a = clone(article);
    a.design.nodes.find((n) => n.kind === "end")!.outputs = {};
    a.design.nodes[1]!.task = "Research {{inputs.topic}} in {{inputs.language}}";
    const { wf } = built(a, "output_written");
    expect((node(wf, "end") as NodeOf<"end">).outputs).toEqual({ article: "{{nodes.write.output}}" });
    expect(built(a, "field_declared").wf.inputs.map((f) => f.key)).toEqual(["topic", "language"]);
  });

  it("template_fixed: a tag that does not parse becomes plain text", () => {
    const a = clone(article);
    a.design.nodes[1]!.task = "Research {{ the topic }} and {{inputs.topic}";
    const { wf } = built(a, "template_fixed");
    expect((node(wf, "research") as NodeOf<"agent">).task).toBe("Research { the topic } and {inputs.topic}");
  });

  it("worker_assigned: an orchestrator with no workers hands work to the agents nobody uses", () => {
    const a = answer({
      summary: "lead",
      inputs: ["q"],
      outputs: ["r"],
      patterns: ["orchestrator-workers"],
      agents: [
        agent("lead", "lead analyst"),
        agent("legal", "legal researcher"),
        agent("money", "financial researcher"),
      ],
      nodes: [
        start(),
        { id: "run", kind: "orchestrator", agent: "lead", task: "Investigate {{inputs.q}}", workers: [] },
        end({ r: "{{nodes.run.output}}" }),
      ],
      edges: edges("start>run run>end"),
    });
    expect((node(built(a, "worker_assigned").wf, "run") as NodeOf<"orchestrator">).workers).toEqual(["legal", "money"]);
  });

  describe("items_chosen: a map whose items cannot give a list goes over a list source", () => {
    const mapAnswer = (items: string, nodes = [step("plan", "planner", "Plan sub-questions of {{inputs.q}}")]) =>
      answer({
        summary: "fan out",
        inputs: ["q"],
        outputs: ["r"],
        patterns: [],
        agents: [agent("planner", "planner"), agent("solver", "solver")],
        nodes: [
          start(),
          ...nodes,
          mapStep("each", items, "solver", "Answer {{item}}"),
          end({ r: "{{nodes.each.output.results}}" }),
        ],
        edges: edges(nodes.length ? "start>plan plan>each each>end" : "start>each each>end"),
      });
    const items = (wf: Workflow) => (node(wf, "each") as NodeOf<"map">).items;

    it("keeps the tag it named, without the text around it", () => {
      const { wf, fixes } = built(mapAnswer("the list {{nodes.plan.output}} please"), "items_chosen");
      expect(items(wf)).toBe("{{nodes.plan.output}}");
      expect(fixes[0]!.code).toBe("map_items_not_list");
    });

    it("reads the nearest node before it that answers, and asks that agent for a JSON list", () => {
      const { wf, fixes } = built(mapAnswer("every question"), "items_chosen");
      expect(items(wf)).toBe("{{nodes.plan.output}}");
      expect((node(wf, "plan") as NodeOf<"agent">).task).toMatch(/JSON list/);
      expect(fixes[0]!.message).toContain('"plan"');
    });

    it("makes a scalar input it reads a JSON list", () => {
      const { wf } = built(mapAnswer("{{inputs.q}}"), "items_chosen");
      expect(items(wf)).toBe("{{inputs.q}}");
      expect(wf.inputs.find((f) => f.key === "q")!.type).toBe("json");
    });

    it("reads a map's results, not its whole output", () => {
      const first = mapStep("first", "{{inputs.list}}", "planner", "Expand {{item}}");
      const a = mapAnswer("{{nodes.first.output}}", [first]);
      a.profile.inputs = [...a.profile.inputs, { key: "list", type: "json" }];
      a.design.edges = edges("start>first first>each each>end");
      const { wf } = built(a, "items_chosen");
      expect(items(wf)).toBe("{{nodes.first.output.results}}");
    });

    it("with nothing before it that answers, asks the run for a new JSON list input", () => {
      const { wf, fixes } = built(mapAnswer("", []), "items_chosen");
      expect(items(wf)).toBe("{{inputs.items}}");
      expect(wf.inputs.find((f) => f.key === "items")).toMatchObject({ type: "json", required: true });
      expect(fixes[0]!.code).toBe("map_items_missing");
    });

    it("a map body naming no declared agent gets one made from its task", () => {
      const a = mapAnswer("{{nodes.plan.output}}");
      a.profile.agents = a.profile.agents.filter((x) => x.key !== "solver");
      const { wf } = built(a, "agent_created");
      const body = (node(wf, "each") as NodeOf<"map">).body as { agent: string };
      expect(wf.agents.find((x) => x.key === body.agent)!.instructions).toContain("Answer {{item}}");
    });
  });

  it("operation_fixed / operation_dropped: adding an agent that exists updates it; removing what is not there is a no-op", () => {
    const base = baseWorkflow("article");
    const ops: EditOperation[] = [
      { op: "add_agent", agent: { key: "writer", role: "senior writer", instructions: "Write crisply." } },
      { op: "remove_node", id: "qqq_no_such_node" },
    ];
    const { wf } = edited(base, ops, "operation_fixed");
    expect(wf.agents.find((x) => x.key === "writer")!.instructions).toBe("Write crisply.");
    edited(base, ops, "operation_dropped");
  });

  it("the chat's summary counts the fixes by kind", () => {
    const fixes: LocalFix[] = [
      { repair: "id_renamed", code: "invalid_id", message: "" },
      { repair: "id_renamed", code: "invalid_id", message: "" },
      { repair: "id_renamed", code: "invalid_id", message: "" },
      { repair: "agent_created", code: "unknown_agent", message: "" },
    ];
    expect(summariseFixes(fixes)).toBe("3 ids renamed, 1 agent created");
  });

  afterAll(() => {
    expect([...proven].sort()).toEqual(Object.keys(REPAIR_KINDS).sort());
  });
});
