import { describe, expect, it } from "vitest";
import { buildGraph, upstreamOf } from "./graph";
import { instantiateTemplate, workflowTemplates } from "./templates";
import { validate } from "./validate";

const byId = (id: string) => {
  const w = instantiateTemplate(id);
  if (!w) throw new Error(id);
  return w;
};

describe("workflowTemplates", () => {
  it("ships the five patterns and a human review, each with id, title, description and positions", () => {
    expect(workflowTemplates.map((t) => t.pattern).sort()).toEqual([
      "evaluator-optimizer",
      "fsm",
      "human-review",
      "map",
      "orchestrator-workers",
      "parallel",
      "routing",
    ]);
    for (const t of workflowTemplates) {
      expect(t.title).not.toBe("");
      expect(t.description.length).toBeGreaterThan(20);
      expect(t.workflow.nodes.every((n) => n.position !== undefined)).toBe(true);
    }
  });

  for (const t of workflowTemplates) {
    it(`${t.id} validates with zero issues`, () => {
      expect(validate(t.workflow)).toEqual([]);
    });
  }

  it("article writer: evaluator loops back to outline, max 3, and continues to the writer", () => {
    const w = byId("article-writer");
    const loops = w.edges.filter((e) => e.kind === "loop");
    expect(loops).toEqual([
      expect.objectContaining({
        source: "evaluate",
        sourceHandle: "revise",
        target: "outline",
        maxIterations: 3,
        onExhausted: "continue",
        continueWith: "approved",
      }),
    ]);
    expect(w.inputs.map((i) => i.key)).toEqual(["topic"]);
  });

  it("name no model: every agent runs on the user's models (the default one unless instantiated with theirs)", () => {
    for (const t of workflowTemplates) {
      expect(
        t.workflow.agents.filter((a) => a.model).map((a) => a.key),
        t.id,
      ).toEqual([]);
      expect(
        t.workflow.nodes.filter((n) => n.type === "router" && n.model).map((n) => n.id),
        t.id,
      ).toEqual([]);
      expect(t.workflow.defaultModel, t.id).toBeUndefined();
    }
  });

  it("majority vote: the solvers take the user's configured models, one each, as far as they go", () => {
    const mine = [
      { provider: "OpenAI", model: "gpt-4.1" },
      { provider: "Local", model: "qwen3:8b" },
      { provider: "Local", model: "qwen3:8b" },
    ];
    const doc = instantiateTemplate("majority-vote", mine)!;
    expect(doc.agents.map((a) => [a.key, a.model?.model])).toEqual([
      ["solver_a", "gpt-4.1"],
      ["solver_b", "qwen3:8b"],
      ["solver_c", undefined],
      ["aggregator", undefined],
    ]);
    expect(instantiateTemplate("majority-vote", mine.slice(0, 1))!.agents.every((a) => !a.model)).toBe(true);
    expect(instantiateTemplate("majority-vote", [])!.agents.every((a) => !a.model)).toBe(true);
  });

  it("majority vote: three solvers joined by the aggregator", () => {
    const w = byId("majority-vote");
    const g = buildGraph(w);
    expect(g.forwardOut.get("start")?.length).toBe(3);
    expect(
      g.forwardIn
        .get("aggregate")
        ?.map((e) => e.source)
        .sort(),
    ).toEqual(["solve_a", "solve_b", "solve_c"]);
    expect(w.nodes.find((n) => n.id === "aggregate")?.join).toBe("all");
  });

  it("refund triage: the router's branches meet again at one end", () => {
    const g = buildGraph(byId("refund-triage"));
    expect(
      g.forwardIn
        .get("end")
        ?.map((e) => e.source)
        .sort(),
    ).toEqual(["refund", "sales"]);
    expect([...upstreamOf(g, "end").always].sort()).toEqual(["start", "triage"]);
  });

  it("ML pipeline: traceback to preprocess and a maxSteps budget", () => {
    const w = byId("ml-pipeline");
    expect(w.edges.filter((e) => e.kind === "loop").map((e) => `${e.sourceHandle}->${e.target}`)).toEqual([
      "retrain->train",
      "data_problem->preprocess",
    ]);
    expect(w.limits.maxSteps).toBe(30);
  });

  it("post with approval: a person publishes or sends the draft back (loop, max 3, then publish)", () => {
    const w = byId("post-approval");
    const review = w.nodes.find((n) => n.id === "review");
    expect(review?.type === "human" && review.branches.map((b) => b.id)).toEqual(["publish", "revise"]);
    expect(w.edges.filter((e) => e.kind === "loop")).toEqual([
      expect.objectContaining({
        source: "review",
        sourceHandle: "revise",
        target: "draft",
        maxIterations: 3,
        onExhausted: "continue",
        continueWith: "publish",
      }),
    ]);
  });

  it("financial analyst: one orchestrator with two workers", () => {
    const node = byId("financial-analyst").nodes.find((n) => n.type === "orchestrator");
    expect(node?.type === "orchestrator" && node.workers).toEqual(["document_manager", "market_research"]);
  });

  it("instantiates independent copies", () => {
    const a = byId("article-writer");
    a.name = "changed";
    expect(byId("article-writer").name).toBe("Article writer");
    expect(instantiateTemplate("nope")).toBeUndefined();
  });
});
