import * as z from "zod";
import { ERROR_OUTCOME, errorPolicySchema } from "./error-policy";
import { MAP_DEFAULT_CONCURRENCY, MAP_MAX_CONCURRENCY, mapItemErrorModes } from "./map-limits";

/**
 * The workflow document (docs/workflow-model.md): the only graph model in the code base.
 * Shapes here are deliberately lenient where a draft may be incomplete (e.g. a loop edge without
 * its cap); `validate()` reports those as precise issues instead of a parse failure, so the editor
 * can show them on the canvas and the designer can feed them back to the model.
 */
export const SCHEMA_VERSION = 1 as const;

/** The identifier rule as a regex: node ids, edge ids, branch ids, agent keys, field and variable keys. */
export const IDENTIFIER_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** The longest identifier (IDENTIFIER_PATTERN encodes it too). */
export const IDENTIFIER_MAX_LENGTH = 64;

/** Ids usable inside templates ({{nodes.<id>.output}}): a letter, then letters, digits, _ or -. */
export const identifier = z
  .string()
  .regex(IDENTIFIER_PATTERN, "must start with a letter and use only letters, digits, _ or - (max 64)");

export const fieldTypes = ["string", "text", "number", "boolean", "json"] as const;
export const fieldSchema = z.object({
  key: identifier,
  type: z.enum(fieldTypes).default("string"),
  description: z.string().default(""),
  required: z.boolean().default(true),
});
export type Field = z.infer<typeof fieldSchema>;

export const variableSchema = z.object({
  key: identifier,
  value: z.union([z.string(), z.number(), z.boolean()]),
  description: z.string().default(""),
});
export type Variable = z.infer<typeof variableSchema>;

/** Which model to call: `provider` is a configured provider's id or name; absent = the workflow/user default. */
export const modelRefSchema = z.object({
  provider: z.string().min(1).optional(),
  model: z.string().min(1),
  temperature: z.number().min(0).max(2).optional(),
});
export type ModelRef = z.infer<typeof modelRefSchema>;

/** A tool from the registry, by name (and optionally a pinned id/version). */
export const toolRefSchema = z.object({
  name: z.string().min(1),
  toolId: z.string().optional(),
  version: z.number().int().positive().optional(),
  /** A tool the designer proposes but that does not exist yet ("to create"); validate() refuses it until created. */
  placeholder: z.boolean().optional(),
  /** What a placeholder tool should do (shown to the user who creates it). */
  description: z.string().optional(),
});
export type ToolRef = z.infer<typeof toolRefSchema>;

export const agentSpecSchema = z.object({
  key: identifier,
  name: z.string().min(1),
  description: z.string().default(""),
  instructions: z.string().default(""),
  model: modelRefSchema.optional(),
  tools: z.array(toolRefSchema).default([]),
  temperature: z.number().min(0).max(2).optional(),
  /** Set when the agent is a reference to a saved agent in the user's library. */
  savedAgentId: z.string().optional(),
  /** The agent may write a tool it lacks during a run (`create_tool`), approved by the workflow's toolCreation policy (default ask). */
  createTools: z.boolean().optional(),
});
export type AgentSpec = z.infer<typeof agentSpecSchema>;

/** An outcome of an agent/router: the model picks one by id (structured output, rule R5). */
export const branchSchema = z.object({
  id: identifier,
  label: z.string().default(""),
  condition: z.string().default(""),
  /** Router in expression mode: a safe expression over data (no eval); the `default` branch has none. */
  expression: z.string().optional(),
  default: z.boolean().optional(),
});
export type Branch = z.infer<typeof branchSchema>;

/** The fewest branches a node with branches may have (validate(): `no_branches`, `router_too_few_branches`). */
export const MIN_BRANCHES = { agent: 1, router: 2, human: 1 } as const;
/** The fewest workers an orchestrator may have (validate(): `orchestrator_no_workers`). */
export const MIN_WORKERS = 1;

const position = z.object({ x: z.number(), y: z.number() });

const nodeBase = {
  id: identifier,
  name: z.string().default(""),
  position: position.optional(),
  /** How a node with several incoming forward edges activates (R1). */
  join: z.enum(["all", "any"]).default("all"),
  /** Per-step timeout; the engine marks the try timed_out past it (error class `timeout`, see onError). */
  timeoutMs: z.number().int().positive().optional(),
  /** What a failed try leads to: retries with backoff, then fail the run, a fallback output or the `error` outcome (error-policy.ts). */
  onError: errorPolicySchema.optional(),
};

export const startNodeSchema = z.object({ ...nodeBase, type: z.literal("start") });
export const agentNodeSchema = z.object({
  ...nodeBase,
  type: z.literal("agent"),
  /** Key of an AgentSpec in `agents`. */
  agent: z.string(),
  /** Templated task, e.g. "Outline an article on {{inputs.topic}}. {{feedback}}". */
  task: z.string().default(""),
  branches: z.array(branchSchema).default([{ id: "done", label: "Done", condition: "" }]),
  maxTurnsPerVisit: z.number().int().positive().optional(),
});
export const routerNodeSchema = z.object({
  ...nodeBase,
  type: z.literal("router"),
  mode: z.enum(["llm", "expression"]).default("llm"),
  /** LLM mode: what the judge sees (templated). */
  prompt: z.string().default(""),
  model: modelRefSchema.optional(),
  branches: z.array(branchSchema).default([]),
});
export const toolNodeSchema = z.object({
  ...nodeBase,
  type: z.literal("tool"),
  tool: toolRefSchema,
  /** Argument values; strings are templates. */
  args: z.record(z.string(), z.unknown()).default({}),
  /** Side-effecting tools get an idempotency key derived from (run, step, iteration). */
  sideEffect: z.boolean().default(false),
});
export const orchestratorNodeSchema = z.object({
  ...nodeBase,
  type: z.literal("orchestrator"),
  agent: z.string(),
  task: z.string().default(""),
  /** Agent keys the orchestrator can hand work to (one handoff tool each). */
  workers: z.array(z.string()).default([]),
  maxHandoffs: z.number().int().positive().default(10),
});
/**
 * Human review: the run waits for a person (the run's owner, on its page or through the API) to
 * choose one of `branches` and fill in `fields`; the answer is the step's output
 * (`{choice, values, comment, answeredBy, answeredAt}`) and the choice is the outcome followed.
 * While nothing else runs, the run is `waiting` and holds no worker; time spent waiting does not
 * count toward limits.runTimeoutMs. `timeoutMs` bounds the wait (checked by the worker's reconciler,
 * so up to its interval late): then `timeoutChoice` is taken, or the step times out.
 */
export const humanNodeSchema = z.object({
  ...nodeBase,
  type: z.literal("human"),
  /** What the person is asked (templated), e.g. "Publish this draft? {{nodes.write.output}}". */
  prompt: z.string().default(""),
  /** The choices offered, one outcome each. */
  branches: z.array(branchSchema).default([
    { id: "approve", label: "Approve", condition: "" },
    { id: "reject", label: "Reject", condition: "" },
  ]),
  /** Values the person fills in with the choice (the answer's `values`). */
  fields: z.array(fieldSchema).default([]),
  /**
   * With `timeoutMs` (how long to wait for an answer): the choice taken when nobody answered in time.
   * Without it, an unanswered review times out and fails the run.
   */
  timeoutChoice: z.string().optional(),
});
/**
 * Subflow: runs another of the owner's saved workflows as one step and waits for its end without
 * holding a worker (like a human review). `inputs` maps the child's input fields to templates
 * rendered with this run's data (a template that is exactly one tag passes its value with its
 * type). The child runs `version`, or its newest saved version when the step starts; its outputs
 * are this step's output (`{{nodes.<id>.output.<key>}}`). A child that does not succeed fails the
 * step. Runs nest at most SUBFLOW_MAX_DEPTH deep (a workflow that runs itself stops there).
 * `timeoutMs` bounds the wait for the child's end (checked by the worker's reconciler, so up to its
 * interval late): the step then times out, and the run's end cancels the child.
 */
export const subflowNodeSchema = z.object({
  ...nodeBase,
  type: z.literal("subflow"),
  /** Id of the owner's workflow to run; "" until one is chosen. */
  workflowId: z.string().default(""),
  /** A saved version to run; default the newest saved version when the step starts. */
  version: z.number().int().positive().optional(),
  /** Child input key → template. */
  inputs: z.record(z.string(), z.string()).default({}),
});
/**
 * The body of a map node: the one step each item runs. An agent (its task reads the item as
 * `{{item}}`) or a tool (its arguments read it). One step per item keeps each item one Step row
 * (iteration = the item's index), committed on its own (docs/workflow-model.md, "Map").
 */
export const mapBodySchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("agent"),
    /** Key of an AgentSpec in `agents`. */
    agent: z.string().default(""),
    /** Templated task; `{{item}}` is the item, `{{item.field}}` a field of it. */
    task: z.string().default(""),
    maxTurnsPerVisit: z.number().int().positive().optional(),
  }),
  z.object({
    type: z.literal("tool"),
    tool: toolRefSchema,
    /** Argument values; strings are templates (`{{item}}` passes the item with its type). */
    args: z.record(z.string(), z.unknown()).default({}),
    sideEffect: z.boolean().default(false),
  }),
]);
export type MapBody = z.infer<typeof mapBodySchema>;
/**
 * Map: runs its body once per item of a list, `concurrency` items at a time, each item its own step.
 * `items` is a template that must give a list (a lone tag: an input, a variable or an upstream
 * output, an agent's JSON answer included). The output is `{results, count, succeeded, failed,
 * errors}` with the results in item order; `onItemError` says what a failed item does: `fail` the
 * map (its onError then applies), `skip` it (left out of results) or `collect` its error in its place.
 */
export const mapNodeSchema = z.object({
  ...nodeBase,
  type: z.literal("map"),
  items: z.string().default(""),
  body: mapBodySchema.default({ type: "agent", agent: "", task: "" }),
  concurrency: z.number().int().min(1).max(MAP_MAX_CONCURRENCY).default(MAP_DEFAULT_CONCURRENCY),
  onItemError: z.enum(mapItemErrorModes).default("fail"),
});
/** How deep runs started by subflow nodes may nest (the top-level run is depth 0). */
export const SUBFLOW_MAX_DEPTH = 5;
export const endNodeSchema = z.object({
  ...nodeBase,
  type: z.literal("end"),
  /** Output key → template. */
  outputs: z.record(z.string(), z.string()).default({}),
});
export const abortNodeSchema = z.object({
  ...nodeBase,
  type: z.literal("abort"),
  reason: z.string().default("Aborted"),
});

export const nodeSchema = z.discriminatedUnion("type", [
  startNodeSchema,
  agentNodeSchema,
  routerNodeSchema,
  toolNodeSchema,
  orchestratorNodeSchema,
  humanNodeSchema,
  subflowNodeSchema,
  mapNodeSchema,
  endNodeSchema,
  abortNodeSchema,
]);
export type WorkflowNode = z.infer<typeof nodeSchema>;
export type NodeKind = WorkflowNode["type"];
export type NodeOf<K extends NodeKind> = Extract<WorkflowNode, { type: K }>;
export const nodeKinds = [
  "start",
  "agent",
  "router",
  "tool",
  "orchestrator",
  "human",
  "subflow",
  "map",
  "end",
  "abort",
] as const satisfies readonly NodeKind[];

/**
 * An edge from a node's outcome handle to a node. `forward` carries data and control; `loop` goes
 * back (to itself or an earlier node) and must carry maxIterations + onExhausted (checked by validate).
 */
export const edgeSchema = z.object({
  id: identifier,
  source: z.string(),
  sourceHandle: z.string(),
  target: z.string(),
  kind: z.enum(["forward", "loop"]).default("forward"),
  maxIterations: z.number().int().optional(),
  onExhausted: z.enum(["continue", "abort"]).optional(),
  /** onExhausted=continue: which outcome of the source to follow instead (default: its first other branch). */
  continueWith: z.string().optional(),
  label: z.string().optional(),
});
export type Edge = z.infer<typeof edgeSchema>;

export const limitsSchema = z.object({
  maxSteps: z.number().int().positive().default(100),
  maxIterationsPerLoop: z.number().int().positive().default(3),
  runTimeoutMs: z
    .number()
    .int()
    .positive()
    .default(15 * 60_000),
  tokenBudget: z.number().int().positive().optional(),
  maxTurnsPerVisit: z.number().int().positive().default(8),
  /** Most items of one map node running at once (each map's own concurrency is capped by it). */
  maxConcurrency: z.number().int().positive().max(MAP_MAX_CONCURRENCY).optional(),
});
export type Limits = z.infer<typeof limitsSchema>;

export const workflowSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION).default(SCHEMA_VERSION),
  name: z.string().default("Untitled workflow"),
  description: z.string().default(""),
  inputs: z.array(fieldSchema).default([]),
  outputs: z.array(fieldSchema).default([]),
  variables: z.array(variableSchema).default([]),
  agents: z.array(agentSpecSchema).default([]),
  nodes: z.array(nodeSchema).default([]),
  edges: z.array(edgeSchema).default([]),
  limits: limitsSchema.default({
    maxSteps: 100,
    maxIterationsPerLoop: 3,
    runTimeoutMs: 15 * 60_000,
    maxTurnsPerVisit: 8,
  }),
  /** Model used by agents and routers that name none. */
  defaultModel: modelRefSchema.optional(),
  /**
   * Tools written during a run: set = every agent may call `create_tool`; `ask` = the run waits for
   * the owner's approval of each new tool, `auto` = tools of pure computation are approved at once
   * (anything asking for network still waits). Unset: only agents with `createTools`, under `ask`.
   */
  toolCreation: z.enum(["ask", "auto"]).optional(),
});
export type Workflow = z.infer<typeof workflowSchema>;
export type WorkflowInput = z.input<typeof workflowSchema>;

/**
 * The outcome handles of a node: what its outgoing edges may start from. A node whose error policy
 * takes the error branch (and every tool node) also has `error`.
 */
export function outcomesOf(node: WorkflowNode): string[] {
  const own = ownOutcomes(node);
  return node.onError?.onExhausted === "error_branch" && !own.includes(ERROR_OUTCOME) ? [...own, ERROR_OUTCOME] : own;
}

function ownOutcomes(node: WorkflowNode): string[] {
  switch (node.type) {
    case "start":
      return ["next"];
    case "agent":
    case "router":
    case "human":
      return node.branches.map((b) => b.id);
    case "tool":
      return ["done", "error"];
    case "orchestrator":
    case "subflow":
    case "map":
      return ["done"];
    case "end":
    case "abort":
      return [];
  }
}

/** Terminal nodes end a path: reaching `end` finishes the run, `abort` aborts it. */
export const isTerminal = (node: WorkflowNode): boolean => node.type === "end" || node.type === "abort";
