import type { Workflow } from "@/lib/workflow/schema";
import { agentNode, buildWorkflow, endNode, fwd, loop, routerNode, startNode } from "./build";

/**
 * The acceptance scenarios of docs/workflow-model.md ("Acceptance scenarios") as workflow documents, shared by the
 * planner, driver and (if useful) integration tests.
 */

/** A: article writer (evaluator-optimizer): evaluator {approved → writer → end; revise → loop to outline, max 3}. */
export function articleWriter(onExhausted: "continue" | "abort" = "continue", maxIterations = 3): Workflow {
  return buildWorkflow({
    name: "Article writer",
    inputs: [{ key: "topic" }],
    outputs: [{ key: "article" }],
    nodes: [
      startNode(),
      agentNode("researcher", ["done"], { task: "Research {{inputs.topic}}" }),
      agentNode("outline", ["done"], { task: "Outline an article on {{inputs.topic}}. {{feedback}}" }),
      agentNode("evaluator", ["approved", "revise"], { task: "Judge {{nodes.outline.output}}" }),
      agentNode("writer", ["done"], { task: "Write from {{nodes.outline.output}}" }),
      endNode("end", { article: "{{nodes.writer.output}}" }),
    ],
    edges: [
      fwd("start", "next", "researcher"),
      fwd("researcher", "done", "outline"),
      fwd("outline", "done", "evaluator"),
      fwd("evaluator", "approved", "writer"),
      loop("evaluator", "revise", "outline", maxIterations, onExhausted, "approved"),
      fwd("writer", "done", "end"),
    ],
  });
}

/** B: majority vote: three solvers on three models → aggregator joining all → end. */
export function majorityVote(): Workflow {
  const solvers = ["solver1", "solver2", "solver3"];
  return buildWorkflow({
    name: "Majority vote",
    inputs: [{ key: "problem" }],
    outputs: [{ key: "answer" }],
    agents: solvers.map((s, i) => ({
      key: s,
      name: s,
      instructions: "Solve the problem; answer with a number.",
      model: { model: `model-${i + 1}` },
    })),
    nodes: [
      startNode(),
      ...solvers.map((s) => agentNode(s, ["done"], { agent: s, task: "Solve: {{inputs.problem}}" })),
      agentNode("aggregator", ["done"], {
        task: "Majority of {{nodes.solver1.output}}, {{nodes.solver2.output}}, {{nodes.solver3.output}}",
      }),
      endNode("end", { answer: "{{nodes.aggregator.output}}" }),
    ],
    edges: [
      ...solvers.map((s) => fwd("start", "next", s)),
      ...solvers.map((s) => fwd(s, "done", "aggregator")),
      fwd("aggregator", "done", "end"),
    ],
  });
}

/** C: financial analyst (orchestrator-workers). */
export function financialAnalyst(): Workflow {
  return buildWorkflow({
    name: "Financial analyst",
    inputs: [{ key: "question" }],
    outputs: [{ key: "report" }],
    agents: [
      { key: "lead", name: "Lead analyst", instructions: "Delegate to your workers, then write the report." },
      { key: "docs", name: "Document manager", description: "Reads filings", instructions: "Summarise the filings." },
      {
        key: "market",
        name: "Market researcher",
        description: "Researches the market",
        instructions: "Research the market.",
      },
    ],
    nodes: [
      startNode(),
      {
        id: "analyst",
        type: "orchestrator",
        agent: "lead",
        task: "Answer: {{inputs.question}}",
        workers: ["docs", "market"],
        maxHandoffs: 4,
      },
      endNode("end", { report: "{{nodes.analyst.output}}" }),
    ],
    edges: [fwd("start", "next", "analyst"), fwd("analyst", "done", "end")],
  });
}

/** D: refund triage: router {purchase → sales; refund → refunds}; both paths reach the same end. */
export function refundTriage(): Workflow {
  return buildWorkflow({
    name: "Refund triage",
    inputs: [{ key: "request" }],
    outputs: [{ key: "reply" }],
    nodes: [
      startNode(),
      routerNode("triage", ["purchase", "refund"]),
      agentNode("sales", ["done"], { task: "Sell: {{inputs.request}}" }),
      agentNode("refunds", ["done"], { task: "Refund: {{inputs.request}}" }),
      endNode("end", { reply: "{{nodes.sales.output}}{{nodes.refunds.output}}" }),
    ],
    edges: [
      fwd("start", "next", "triage"),
      fwd("triage", "purchase", "sales"),
      fwd("triage", "refund", "refunds"),
      fwd("sales", "done", "end"),
      fwd("refunds", "done", "end"),
    ],
  });
}

/** E: ML pipeline FSM with traceback: evaluate {ok → report; data_problem → loop to preprocess}. */
export function mlPipeline(maxSteps = 12, maxIterations = 3): Workflow {
  return buildWorkflow({
    name: "ML pipeline",
    inputs: [{ key: "dataset" }],
    outputs: [{ key: "report" }],
    limits: { maxSteps, maxIterationsPerLoop: 3, runTimeoutMs: 60_000, maxTurnsPerVisit: 8 },
    nodes: [
      startNode(),
      agentNode("preprocess", ["done"], { task: "Preprocess {{inputs.dataset}} {{feedback}}" }),
      agentNode("train", ["done"]),
      agentNode("evaluate", ["ok", "data_problem"]),
      agentNode("report", ["done"]),
      endNode("end", { report: "{{nodes.report.output}}" }),
    ],
    edges: [
      fwd("start", "next", "preprocess"),
      fwd("preprocess", "done", "train"),
      fwd("train", "done", "evaluate"),
      fwd("evaluate", "ok", "report"),
      loop("evaluate", "data_problem", "preprocess", maxIterations, "abort"),
      fwd("report", "done", "end"),
    ],
  });
}
