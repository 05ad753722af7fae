import { workflowSchema, type Edge, type ModelRef, type Workflow, type WorkflowInput } from "./schema";

/**
 * The five pattern templates, a human review and a map (docs/workflow-model.md, "Acceptance scenarios") as ready-to-run
 * documents with canvas positions. They double as the acceptance scenarios' workflows, as designer
 * few-shot examples and as the gallery a user starts from. Each validates with zero issues (tested).
 */
export type PatternId =
  "routing" | "parallel" | "evaluator-optimizer" | "fsm" | "orchestrator-workers" | "human-review" | "map";

/**
 * A gallery entry: the ready-to-run document plus what to show about it. No template names a model:
 * every agent runs on the user's default model, except the agents of `modelSlots`, which are meant to
 * run on different models and get the user's configured ones when the template is instantiated.
 */
export type WorkflowTemplate = {
  id: string;
  title: string;
  description: string;
  pattern: PatternId;
  workflow: Workflow;
  modelSlots?: string[];
};

type NodeInput = NonNullable<WorkflowInput["nodes"]>[number];
type AgentInput = NonNullable<WorkflowInput["agents"]>[number];

const at = (col: number, row: number) => ({ x: col * 280, y: row * 160 });
const edge = (source: string, handle: string, target: string): Edge => ({
  id: `${source}-${handle}-${target}`,
  source,
  sourceHandle: handle,
  target,
  kind: "forward",
});
const loopEdge = (
  source: string,
  handle: string,
  target: string,
  maxIterations: number,
  extra: Partial<Edge> = {},
): Edge => ({
  ...edge(source, handle, target),
  kind: "loop",
  maxIterations,
  onExhausted: "continue",
  ...extra,
});
const agentSpec = (key: string, name: string, instructions: string, extra: Partial<AgentInput> = {}): AgentInput => ({
  key,
  name,
  description: instructions.split(".")[0] ?? "",
  instructions,
  ...extra,
});
const agentNode = (
  id: string,
  agent: string,
  task: string,
  pos: { x: number; y: number },
  branches?: { id: string; label: string; condition: string }[],
): NodeInput => ({
  id,
  type: "agent",
  name: id.replace(/_/g, " "),
  agent,
  task,
  position: pos,
  ...(branches ? { branches } : {}),
});

const articleWriter: WorkflowInput = {
  name: "Article writer",
  description:
    "Research a topic, outline it, have the outline reviewed (revise up to 3 times), then write the article.",
  inputs: [{ key: "topic", type: "string", description: "What the article is about" }],
  outputs: [{ key: "article", type: "text", description: "The finished article" }],
  agents: [
    agentSpec("researcher", "Researcher", "Collect the key facts, sources and open questions about the topic."),
    agentSpec("outliner", "Outliner", "Write a clear, hierarchical outline for an encyclopedic article."),
    agentSpec(
      "evaluator",
      "Evaluator",
      "Judge whether an outline is complete, well ordered and faithful to the research.",
    ),
    agentSpec("writer", "Writer", "Write a well-structured encyclopedic article that follows the outline."),
  ],
  nodes: [
    { id: "start", type: "start", position: at(0, 1) },
    agentNode("research", "researcher", "Research the topic: {{inputs.topic}}", at(1, 1)),
    agentNode(
      "outline",
      "outliner",
      "Outline an article on {{inputs.topic}} from this research:\n{{nodes.research.output}}\n\nReviewer feedback to address (if any): {{feedback}}",
      at(2, 1),
    ),
    agentNode(
      "evaluate",
      "evaluator",
      "Review this outline for an article on {{inputs.topic}}:\n{{nodes.outline.output}}",
      at(3, 1),
      [
        { id: "approved", label: "Approved", condition: "The outline is complete and well ordered." },
        { id: "revise", label: "Revise", condition: "The outline has gaps or ordering problems; say what to fix." },
      ],
    ),
    agentNode(
      "write",
      "writer",
      "Write the article on {{inputs.topic}} following this outline:\n{{nodes.outline.output}}\n\nResearch:\n{{nodes.research.output}}",
      at(4, 1),
    ),
    { id: "end", type: "end", position: at(5, 1), outputs: { article: "{{nodes.write.output}}" } },
  ],
  edges: [
    edge("start", "next", "research"),
    edge("research", "done", "outline"),
    edge("outline", "done", "evaluate"),
    edge("evaluate", "approved", "write"),
    loopEdge("evaluate", "revise", "outline", 3, { continueWith: "approved" }),
    edge("write", "done", "end"),
  ],
};

const solver = (n: string) =>
  agentSpec(
    `solver_${n}`,
    `Solver ${n.toUpperCase()}`,
    "Solve the problem step by step and end with a line 'ANSWER: <answer>'.",
  );
const majorityVote: WorkflowInput = {
  name: "Majority vote",
  description:
    "Three solvers answer independently (each on one of your models when you have several); an aggregator returns the majority answer.",
  inputs: [{ key: "problem", type: "text", description: "The problem to solve" }],
  outputs: [{ key: "answer", type: "string", description: "The majority answer" }],
  agents: [
    solver("a"),
    solver("b"),
    solver("c"),
    agentSpec(
      "aggregator",
      "Aggregator",
      "Compare the candidate answers and return the one most of them agree on, nothing else.",
    ),
  ],
  nodes: [
    { id: "start", type: "start", position: at(0, 1) },
    agentNode("solve_a", "solver_a", "{{inputs.problem}}", at(1, 0)),
    agentNode("solve_b", "solver_b", "{{inputs.problem}}", at(1, 1)),
    agentNode("solve_c", "solver_c", "{{inputs.problem}}", at(1, 2)),
    {
      ...agentNode(
        "aggregate",
        "aggregator",
        "Problem: {{inputs.problem}}\n\nCandidate A:\n{{nodes.solve_a.output}}\n\nCandidate B:\n{{nodes.solve_b.output}}\n\nCandidate C:\n{{nodes.solve_c.output}}",
        at(2, 1),
      ),
      join: "all",
    },
    { id: "end", type: "end", position: at(3, 1), outputs: { answer: "{{nodes.aggregate.output}}" } },
  ],
  edges: [
    edge("start", "next", "solve_a"),
    edge("start", "next", "solve_b"),
    edge("start", "next", "solve_c"),
    edge("solve_a", "done", "aggregate"),
    edge("solve_b", "done", "aggregate"),
    edge("solve_c", "done", "aggregate"),
    edge("aggregate", "done", "end"),
  ],
};

const refundTriage: WorkflowInput = {
  name: "Refund triage",
  description:
    "A router sends purchase questions to sales and refund requests to the refund desk; both paths end in one reply.",
  inputs: [{ key: "message", type: "text", description: "The customer's message" }],
  outputs: [{ key: "reply", type: "text", description: "The reply to send" }],
  agents: [
    agentSpec("sales", "Sales agent", "Help customers choose and buy products. Be concise and friendly."),
    agentSpec(
      "refunds",
      "Refund agent",
      "Handle refund requests: check eligibility, explain the next steps, be empathetic.",
    ),
  ],
  nodes: [
    { id: "start", type: "start", position: at(0, 1) },
    {
      id: "triage",
      type: "router",
      name: "triage",
      mode: "llm",
      position: at(1, 1),
      prompt: "Classify this customer message:\n{{inputs.message}}",
      branches: [
        { id: "purchase", label: "Purchase", condition: "The customer wants to buy something or asks about products." },
        { id: "refund", label: "Refund", condition: "The customer wants money back or to return an order." },
      ],
    },
    agentNode("sales", "sales", "Answer the customer:\n{{inputs.message}}", at(2, 0)),
    agentNode("refund", "refunds", "Handle this refund request:\n{{inputs.message}}", at(2, 2)),
    { id: "end", type: "end", position: at(3, 1), outputs: { reply: "{{nodes.sales.output}}{{nodes.refund.output}}" } },
  ],
  edges: [
    edge("start", "next", "triage"),
    edge("triage", "purchase", "sales"),
    edge("triage", "refund", "refund"),
    edge("sales", "done", "end"),
    edge("refund", "done", "end"),
  ],
};

const mlPipeline: WorkflowInput = {
  name: "ML pipeline",
  description:
    "A state machine: preprocess, train, evaluate; evaluation moves on, retrains, or traces back to preprocessing.",
  inputs: [{ key: "dataset", type: "string", description: "Where the dataset is and what it contains" }],
  outputs: [{ key: "report", type: "text", description: "The final model report" }],
  variables: [{ key: "target_accuracy", value: 0.9, description: "Minimum accuracy to accept the model" }],
  limits: { maxSteps: 30 },
  agents: [
    agentSpec("data_engineer", "Data engineer", "Clean and prepare datasets; describe every transformation."),
    agentSpec("trainer", "Trainer", "Choose a model and training setup; report the metrics you obtain."),
    agentSpec(
      "evaluator",
      "Evaluator",
      "Evaluate a trained model and decide whether it is good enough, needs retraining, or has a data problem.",
    ),
    agentSpec("reporter", "Reporter", "Write a short, factual model report."),
  ],
  nodes: [
    { id: "start", type: "start", position: at(0, 1) },
    agentNode(
      "preprocess",
      "data_engineer",
      "Prepare the dataset: {{inputs.dataset}}\nProblems found by the evaluator (if any): {{feedback}}",
      at(1, 1),
    ),
    agentNode(
      "train",
      "trainer",
      "Train a model on the prepared data:\n{{nodes.preprocess.output}}\nEvaluator notes (if any): {{feedback}}",
      at(2, 1),
    ),
    agentNode(
      "evaluate",
      "evaluator",
      "Evaluate this training run against a target accuracy of {{vars.target_accuracy}}:\n{{nodes.train.output}}",
      at(3, 1),
      [
        { id: "ok", label: "Good enough", condition: "The model meets the target." },
        { id: "retrain", label: "Retrain", condition: "The data is fine but training should change." },
        {
          id: "data_problem",
          label: "Data problem",
          condition: "The data itself is the problem (leakage, imbalance, bad labels).",
        },
      ],
    ),
    agentNode(
      "report",
      "reporter",
      "Report on the final model:\n{{nodes.train.output}}\nEvaluation:\n{{nodes.evaluate.output}}",
      at(4, 1),
    ),
    { id: "end", type: "end", position: at(5, 1), outputs: { report: "{{nodes.report.output}}" } },
  ],
  edges: [
    edge("start", "next", "preprocess"),
    edge("preprocess", "done", "train"),
    edge("train", "done", "evaluate"),
    edge("evaluate", "ok", "report"),
    loopEdge("evaluate", "retrain", "train", 2, { continueWith: "ok" }),
    loopEdge("evaluate", "data_problem", "preprocess", 2, { continueWith: "ok" }),
    edge("report", "done", "end"),
  ],
};

const financialAnalyst: WorkflowInput = {
  name: "Financial analyst",
  description:
    "An orchestrating analyst hands work to a document manager and a market researcher, then writes the analysis.",
  inputs: [{ key: "request", type: "text", description: "What to analyse (company, question, documents)" }],
  outputs: [{ key: "analysis", type: "text", description: "The financial analysis" }],
  agents: [
    agentSpec(
      "analyst",
      "Financial analyst",
      "Plan the analysis, delegate document work and market research to your workers, then combine their results into a sound analysis.",
    ),
    agentSpec(
      "document_manager",
      "Document manager",
      "Find, read and summarise the relevant financial documents (filings, reports).",
    ),
    agentSpec(
      "market_research",
      "Market researcher",
      "Research market data, competitors and recent news relevant to the question.",
    ),
  ],
  nodes: [
    { id: "start", type: "start", position: at(0, 1) },
    {
      id: "analyse",
      type: "orchestrator",
      name: "analyse",
      agent: "analyst",
      task: "{{inputs.request}}",
      workers: ["document_manager", "market_research"],
      maxHandoffs: 8,
      position: at(1, 1),
    },
    { id: "end", type: "end", position: at(2, 1), outputs: { analysis: "{{nodes.analyse.output}}" } },
  ],
  edges: [edge("start", "next", "analyse"), edge("analyse", "done", "end")],
};

const postApproval: WorkflowInput = {
  name: "Post with approval",
  description:
    "Draft a post, ask a person to publish it or send it back with a note (up to 3 drafts), then polish the approved draft.",
  inputs: [{ key: "topic", type: "string", description: "What the post is about" }],
  outputs: [{ key: "post", type: "text", description: "The approved, polished post" }],
  agents: [
    agentSpec("drafter", "Drafter", "Write short, clear posts for a company blog."),
    agentSpec(
      "editor",
      "Editor",
      "Polish an approved post: fix grammar and tighten sentences without changing its meaning.",
    ),
  ],
  nodes: [
    { id: "start", type: "start", position: at(0, 1) },
    agentNode(
      "draft",
      "drafter",
      "Write a short post about {{inputs.topic}}.\n\nThe reviewer's note on the last draft (if any): {{feedback.values.note}}",
      at(1, 1),
    ),
    {
      id: "review",
      type: "human",
      name: "review",
      position: at(2, 1),
      prompt: "Publish this post about {{inputs.topic}}?\n\n{{nodes.draft.output}}",
      branches: [
        { id: "publish", label: "Publish", condition: "" },
        { id: "revise", label: "Send back", condition: "" },
      ],
      fields: [{ key: "note", type: "text", description: "What to change (for Send back)", required: false }],
    },
    agentNode("polish", "editor", "Polish this approved post:\n{{nodes.draft.output}}", at(3, 1)),
    { id: "end", type: "end", position: at(4, 1), outputs: { post: "{{nodes.polish.output}}" } },
  ],
  edges: [
    edge("start", "next", "draft"),
    edge("draft", "done", "review"),
    edge("review", "publish", "polish"),
    loopEdge("review", "revise", "draft", 3, { onExhausted: "continue", continueWith: "publish" }),
    edge("polish", "done", "end"),
  ],
};

const researchEach: WorkflowInput = {
  name: "Research each sub-question in parallel",
  description:
    "A planner splits the question into sub-questions, a map researches each one (4 at a time), and a synthesiser answers from the findings.",
  inputs: [{ key: "question", type: "text", description: "The research question" }],
  outputs: [{ key: "answer", type: "text", description: "The synthesised answer" }],
  agents: [
    agentSpec(
      "planner",
      "Planner",
      "Split a research question into three to six sub-questions that can be researched on their own. Answer with a JSON list of strings only.",
    ),
    agentSpec(
      "researcher",
      "Researcher",
      "Research one sub-question: the key facts, with sources where you have them, in a short paragraph.",
    ),
    agentSpec(
      "synthesiser",
      "Synthesiser",
      "Answer the research question from the findings of its sub-questions; say where they disagree.",
    ),
  ],
  nodes: [
    { id: "start", type: "start", position: at(0, 1) },
    agentNode("plan", "planner", "Split this question into sub-questions:\n{{inputs.question}}", at(1, 1)),
    {
      id: "research",
      type: "map",
      name: "research each",
      position: at(2, 1),
      items: "{{nodes.plan.output}}",
      body: {
        type: "agent",
        agent: "researcher",
        task: 'Research this sub-question of "{{inputs.question}}":\n{{item}}',
      },
      concurrency: 4,
      onItemError: "collect",
    },
    agentNode(
      "synthesise",
      "synthesiser",
      "Answer this question: {{inputs.question}}\n\nFindings, one per sub-question:\n{{nodes.research.output.results}}",
      at(3, 1),
    ),
    { id: "end", type: "end", position: at(4, 1), outputs: { answer: "{{nodes.synthesise.output}}" } },
  ],
  edges: [
    edge("start", "next", "plan"),
    edge("plan", "done", "research"),
    edge("research", "done", "synthesise"),
    edge("synthesise", "done", "end"),
  ],
};

const make = (
  id: string,
  title: string,
  pattern: PatternId,
  input: WorkflowInput,
  modelSlots?: string[],
): WorkflowTemplate => {
  const workflow = workflowSchema.parse(input);
  return { id, title, description: workflow.description, pattern, workflow, ...(modelSlots ? { modelSlots } : {}) };
};

/** All pattern templates, in gallery order. */
export const workflowTemplates: readonly WorkflowTemplate[] = [
  make("article-writer", "Article writer", "evaluator-optimizer", articleWriter),
  make("majority-vote", "Majority vote", "parallel", majorityVote, ["solver_a", "solver_b", "solver_c"]),
  make("refund-triage", "Refund triage", "routing", refundTriage),
  make("ml-pipeline", "ML pipeline", "fsm", mlPipeline),
  make("financial-analyst", "Financial analyst", "orchestrator-workers", financialAnalyst),
  make("post-approval", "Post with approval", "human-review", postApproval),
  make("research-each", "Research each sub-question in parallel", "map", researchEach),
];

/**
 * A deep copy of a template's workflow (safe to edit), or undefined for an unknown id. `models` are
 * the user's configured models: the template's model slots take them in order (one each, as far as
 * they go); every other agent, and a slot left over, runs on the user's default model.
 */
export function instantiateTemplate(id: string, models: readonly ModelRef[] = []): Workflow | undefined {
  const found = workflowTemplates.find((t) => t.id === id);
  if (!found) return undefined;
  const doc = structuredClone(found.workflow);
  const slots = found.modelSlots ?? [];
  const distinct = models.filter(
    (m, i) => models.findIndex((x) => x.model === m.model && x.provider === m.provider) === i,
  );
  if (distinct.length < 2) return doc;
  return {
    ...doc,
    agents: doc.agents.map((a) =>
      slots.indexOf(a.key) >= 0 && distinct[slots.indexOf(a.key)]
        ? { ...a, model: { ...distinct[slots.indexOf(a.key)]! } }
        : a,
    ),
  };
}
