import { describe, expect, it } from "vitest";
import { agent, doc, fwd, loop } from "@/lib/workflow/testing";
import { workflowTemplates } from "@/lib/workflow/templates";
import { validate } from "@/lib/workflow/validate";
import type { NodeOf, Workflow } from "@/lib/workflow/schema";
import { applyOperations } from "@/lib/workflow/operations";
import { factsOf } from "./facts";
import { fsmRule, parallelRule, sequentialRule } from "./rules";
import { proposeSimplifications } from ".";
import { isOffered, proposalNotes } from "./answer";

const errors = (wf: Workflow) => validate(wf).filter((i) => i.severity === "error");
const node = (wf: Workflow, id: string) => wf.nodes.find((n) => n.id === id);
const template = (id: string) => workflowTemplates.find((t) => t.id === id)!.workflow;

/** start → research → summarise → end, the summary reading the research. */
const chain = (extra: { summariseIn?: boolean; branches?: boolean; models?: boolean } = {}) =>
  doc({
    inputs: [{ key: "topic" }],
    agents: [
      agent("researcher", extra.models ? { model: { model: "m1" } } : {}),
      agent("summariser", extra.models ? { model: { model: "m2" } } : {}),
    ],
    nodes: [
      { id: "start", type: "start" },
      { id: "research", type: "agent", agent: "researcher", task: "Research {{inputs.topic}}" },
      {
        id: "summarise",
        type: "agent",
        agent: "summariser",
        task: "Summarise: {{nodes.research.output}}",
      },
      ...(extra.branches
        ? [{ id: "other", type: "agent" as const, agent: "summariser", task: "Other {{inputs.topic}}" }]
        : []),
      { id: "end", type: "end", outputs: { out: "{{nodes.summarise.output}} {{nodes.research.output}}" } },
    ],
    edges: [
      fwd("start", "next", "research"),
      fwd("research", "done", "summarise"),
      fwd("summarise", "done", "end"),
      ...(extra.summariseIn ? [fwd("start", "next", "summarise")] : []),
      ...(extra.branches ? [fwd("research", "done", "other"), fwd("other", "done", "end")] : []),
    ],
    outputs: [{ key: "out" }],
  });

describe("rule 1: sequential steps one agent can do in one turn", () => {
  it("proposes A → B when B's only input is A and folds it into one valid node", () => {
    const wf = chain();
    expect(errors(wf)).toEqual([]);
    expect(sequentialRule(factsOf(wf))).toEqual([{ rule: "sequential", first: "research", second: "summarise" }]);
    const [p] = proposeSimplifications(wf);
    expect(p).toMatchObject({ rule: "sequential", nodes: ["research", "summarise"], into: "summarise" });
    expect(errors(p!.workflow)).toEqual([]);
    expect(node(p!.workflow, "research")).toBeUndefined();
    const merged = node(p!.workflow, "summarise") as NodeOf<"agent">;
    expect(merged.task).toContain("Research {{inputs.topic}}");
    expect(merged.task).not.toContain("nodes.research");
    // readers of the first step's output read the merged node's
    expect(node(p!.workflow, "end")).toMatchObject({
      outputs: { out: "{{nodes.summarise.output}} {{nodes.summarise.output}}" },
    });
    expect(p!.workflow.agents.map((a) => a.key)).toEqual(["researcher_summariser"]);
    expect(p!.saving).toEqual({ calls: 1, tokens: expect.any(Number) });
    expect(p!.saving.tokens).toBeGreaterThan(0);
    // the change groups turn the original into the merged document
    expect(
      applyOperations(
        wf,
        p!.changes.flatMap((g) => g.ops),
      ),
    ).toEqual(p!.workflow);
  });

  it("leaves B alone when it has another input, when A branches, or when the agents' models differ", () => {
    expect(sequentialRule(factsOf(chain({ summariseIn: true })))).toEqual([]);
    expect(sequentialRule(factsOf(chain({ branches: true })))).toEqual([]);
    expect(sequentialRule(factsOf(chain({ models: true })))).toEqual([]);
  });

  it("does not take pairs on a loop (that is rule 3)", () => {
    expect(sequentialRule(factsOf(template("ml-pipeline")))).toEqual([]);
  });
});

describe("rule 2: parallel siblings that do the same thing", () => {
  it("merges the majority vote's identical solvers into one and keeps the join valid", () => {
    const wf = template("majority-vote");
    expect(parallelRule(factsOf(wf))).toEqual([{ rule: "parallel", keep: "solve_a", remove: ["solve_b", "solve_c"] }]);
    const p = proposeSimplifications(wf).find((x) => x.rule === "parallel")!;
    expect(errors(p.workflow)).toEqual([]);
    expect(p.workflow.nodes.map((n) => n.id)).toEqual(["start", "solve_a", "aggregate", "end"]);
    expect((node(p.workflow, "aggregate") as NodeOf<"agent">).task).not.toMatch(/solve_[bc]/);
    expect(p.workflow.agents.map((a) => a.key)).toEqual(["solver_a", "aggregator"]);
    expect(p.saving.calls).toBe(2);
    expect(p.diff).toEqual({ added: [], removed: ["solve_b", "solve_c"], changed: ["aggregate"] });
  });

  it("keeps siblings apart when their agents run on different models or their tasks differ", () => {
    const wf = template("majority-vote");
    const models = { ...wf, agents: wf.agents.map((a, i) => ({ ...a, model: { model: `m${i}` } })) };
    expect(parallelRule(factsOf(models))).toEqual([]);
    const tasks = {
      ...wf,
      nodes: wf.nodes.map((n) =>
        n.id === "solve_b" && n.type === "agent" ? { ...n, task: "Check {{inputs.problem}}" } : n,
      ),
    };
    expect(parallelRule(factsOf(tasks))[0]).toEqual({ rule: "parallel", keep: "solve_a", remove: ["solve_c"] });
  });

  it("never merges a router's alternative routes (not a fan-out)", () => {
    const wf = template("refund-triage");
    const same = {
      ...wf,
      nodes: wf.nodes.map((n) =>
        n.type === "agent" ? { ...n, agent: "sales", task: "Answer {{inputs.message}}" } : n,
      ),
    };
    expect(parallelRule(factsOf(same))).toEqual([]);
  });
});

describe("rule 3: states of a state machine that always follow each other", () => {
  it("merges train → evaluate in the ML pipeline: the retrain loop becomes the merged state's own", () => {
    const wf = template("ml-pipeline");
    expect(fsmRule(factsOf(wf))).toEqual([{ rule: "fsm", first: "train", second: "evaluate" }]);
    const p = proposeSimplifications(wf).find((x) => x.rule === "fsm")!;
    expect(errors(p.workflow)).toEqual([]);
    const retrain = p.workflow.edges.find((e) => e.sourceHandle === "retrain")!;
    expect(retrain).toMatchObject({ source: "evaluate", target: "evaluate", kind: "loop" });
    expect((node(p.workflow, "evaluate") as NodeOf<"agent">).branches.map((b) => b.id)).toEqual([
      "ok",
      "retrain",
      "data_problem",
    ]);
    expect((node(p.workflow, "report") as NodeOf<"agent">).task).not.toContain("nodes.train");
  });

  it("merges outline → evaluate in the article writer, but not research → outline (a loop also enters outline)", () => {
    const wf = template("article-writer");
    expect(fsmRule(factsOf(wf))).toEqual([{ rule: "fsm", first: "outline", second: "evaluate" }]);
    expect(errors(proposeSimplifications(wf)[0]!.workflow)).toEqual([]);
  });

  it("leaves a state alone that another state also enters", () => {
    const wf = doc({
      agents: [agent("a"), agent("b")],
      nodes: [
        { id: "start", type: "start" },
        { id: "x", type: "agent", agent: "a", task: "x" },
        {
          id: "y",
          type: "agent",
          agent: "b",
          task: "y {{nodes.x.output}}",
          branches: [
            { id: "again", label: "", condition: "not yet" },
            { id: "ok", label: "", condition: "done" },
          ],
        },
        { id: "end", type: "end" },
      ],
      edges: [fwd("start", "next", "x"), fwd("x", "done", "y"), loop("y", "again", "y"), fwd("y", "ok", "end")],
    });
    expect(errors(wf)).toEqual([]);
    expect(fsmRule(factsOf(wf))).toEqual([]);
    expect(sequentialRule(factsOf(wf))).toEqual([]);
  });
});

describe("proposeSimplifications", () => {
  it("proposes nothing where nothing overlaps, and every proposal on the templates validates", () => {
    expect(proposeSimplifications(template("financial-analyst"))).toEqual([]);
    expect(proposeSimplifications(template("refund-triage"))).toEqual([]);
    for (const t of workflowTemplates)
      for (const p of proposeSimplifications(t.workflow)) expect(errors(p.workflow), `${t.id} ${p.id}`).toEqual([]);
  });
});

describe("the panel's reading of an answer", () => {
  it("offers kept and unevaluated merges, not rejected ones, and says why", () => {
    const [p] = proposeSimplifications(template("majority-vote"));
    const evaluation = {
      datasetId: "d",
      datasetName: "Arithmetic problems",
      rows: 3,
      rowsSkipped: 0,
      tolerance: 0.05,
      reference: "dataset" as const,
      evaluators: [],
      original: { score: 1, succeeded: 3, rows: 3, calls: 12, tokens: 900 },
    };
    const kept = {
      ...p!,
      evaluation: {
        kept: true,
        reason: "score 1 vs the original's 1 (within 0.05)",
        score: 1,
        succeeded: 3,
        rows: 3,
        calls: 6,
        tokens: 500,
      },
    };
    const rejected = { ...kept, evaluation: { ...kept.evaluation, kept: false, reason: "score fell from 1 to 0.5" } };
    expect(isOffered(kept)).toBe(true);
    expect(isOffered({ ...p!, evaluation: null })).toBe(true);
    expect(isOffered(rejected)).toBe(false);
    expect(proposalNotes(kept, { evaluation })).toEqual([
      `Expected saving per run: 2 model call(s), ~${p!.saving.tokens} prompt tokens.`,
      'Kept on "Arithmetic problems" (3 rows): score 1 vs the original\'s 1 (within 0.05).',
      "Measured: calls 12 → 6, tokens 900 → 500.",
    ]);
    expect(proposalNotes({ ...p!, evaluation: null }, { evaluation: null })[1]).toMatch(/Not evaluated/);
  });
});
