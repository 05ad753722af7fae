/**
 * The designer's answer shapes as the pipeline handles them after reading (read.ts): the compact
 * design form (profile + nodes/edges, or edit operations). They are deliberately LENIENT (a node's
 * kind is any string, references may point nowhere, ids may clash) — the repairs make them valid.
 * What a model is asked for is the exact schema of wire.ts; what it answers is read into these.
 */

/** Which kind of model an agent needs; mapped to a configured model when compiled (default balanced). */
export const modelClasses = ["fast", "balanced", "strong"] as const;
export type ModelClass = (typeof modelClasses)[number];

/** The workflow patterns the designer knows (docs/workflow-model.md). */
export const patternNames = [
  "sequential",
  "routing",
  "parallel",
  "evaluator-optimizer",
  "fsm-traceback",
  "orchestrator-workers",
  "human-in-the-loop",
] as const;
export type PatternName = (typeof patternNames)[number];

/** An input or output field of the profile. */
export type DesignField = {
  key: string;
  type?: "string" | "text" | "number" | "boolean" | "json";
  description?: string;
};

/** One agent of the design: a role with instructions, tools and a model class, or a saved agent reused. */
export type DesignAgent = {
  key: string;
  role: string;
  instructions: string;
  modelClass?: ModelClass;
  /** Names of tools (registered ones, or new ones listed in profile.toolsNeeded). */
  tools?: string[];
  /** Id of a saved agent from the context to reuse instead of a new one. */
  reuse?: string;
};

export type ToolNeeded = { name: string; purpose?: string };

/** The PROFILE (AutoAgent's agent/workflow profiling): what the system takes, returns and needs. */
export type Profile = {
  summary: string;
  inputs: DesignField[];
  outputs: DesignField[];
  patterns: string[];
  agents: DesignAgent[];
  toolsNeeded?: ToolNeeded[];
  /** Sample run inputs written by the model for the optional dry run. */
  sampleInputs?: Record<string, unknown>;
};

export type DesignBranch = { id: string; condition?: string };

/** A node of the compact design form; which fields apply depends on `kind` (wire.ts). */
export type DesignNode = {
  id: string;
  kind: string;
  name?: string;
  /** agent / orchestrator: agent key. */
  agent?: string;
  /** agent / orchestrator: templated task. */
  task?: string;
  /** agent / router / human outcomes. */
  branches?: DesignBranch[];
  /** router / human: what the judge or the person sees. */
  prompt?: string;
  /** orchestrator: worker agent keys. */
  workers?: string[];
  /** tool: tool name. */
  tool?: string;
  /** tool: argument values (strings are templates). */
  args?: Record<string, unknown>;
  /** subflow: the saved workflow to run, its inputs (key → template) and an optional pinned version. */
  workflowId?: string;
  inputs?: Record<string, string>;
  version?: number;
  /** end: output key → template. */
  outputs?: Record<string, string>;
  /** abort: templated reason. */
  reason?: string;
  /** map: the list (a template that gives one), how many items at once, what a failed item does; its body is `agent` + `task`. */
  items?: string;
  concurrency?: number;
  onItemError?: "fail" | "skip" | "collect";
  join?: "all" | "any";
};

/** An edge of the design form: from a node's branch (default: its only outcome) to a node. */
export type DesignEdge = {
  from: string;
  branch?: string;
  to: string;
  /** True for an edge back to the node itself or an earlier node. */
  loop?: boolean;
  maxIterations?: number;
  onExhausted?: "continue" | "abort";
};

export type DesignVariable = { key: string; value: string | number | boolean };

/** The EMITTED WORKFLOW in compact form; `compileDesign` maps it onto lib/workflow's document. */
export type Design = {
  name: string;
  description?: string;
  variables?: DesignVariable[];
  nodes: DesignNode[];
  edges: DesignEdge[];
};

/** Answer to a new-workflow request: profile and design in ONE structured call. */
export type DesignAnswer = { profile: Profile; design: Design };

type Ref = { from: string; branch?: string; to: string };

/** One edit of an existing graph. Ids of untouched nodes never change. */
export type EditOperation =
  | { op: "add_agent"; agent: DesignAgent }
  | { op: "update_agent"; key: string; set: Partial<Omit<DesignAgent, "key">> }
  | { op: "remove_agent"; key: string }
  | { op: "add_node"; node: DesignNode }
  | { op: "update_node"; id: string; set: Partial<Omit<DesignNode, "id" | "kind">> }
  | { op: "remove_node"; id: string; reconnect?: boolean }
  /** Insert a new node on the edge from → to: the old edge goes, two new edges come. */
  | ({ op: "insert_between"; node: DesignNode } & Ref)
  | { op: "add_edge"; edge: DesignEdge }
  | ({ op: "remove_edge" } & Ref)
  | ({ op: "set_loop_cap"; maxIterations: number; onExhausted?: "continue" | "abort" } & Ref)
  | { op: "add_input"; field: DesignField }
  | { op: "set_variable"; key: string; value: string | number | boolean };

/** The operation names, in the order the prompt lists them. */
export const operationNames = [
  "add_agent",
  "update_agent",
  "remove_agent",
  "add_node",
  "update_node",
  "remove_node",
  "insert_between",
  "add_edge",
  "remove_edge",
  "set_loop_cap",
  "add_input",
  "set_variable",
] as const satisfies readonly EditOperation["op"][];

/** Answer to an edit request on an existing graph: a list of operations, never the whole graph. */
export type EditAnswer = { summary: string; operations: EditOperation[]; toolsNeeded?: ToolNeeded[] };

/** Schema names sent with structured calls (fixtures of the scripted model match on them). */
export const SCHEMA_NAMES = { design: "weft_design", edit: "weft_edit" } as const;
