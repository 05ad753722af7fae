import { z } from "zod";

/**
 * Every answer the designer asks a model for, as zod (converted to JSON schema for the structured
 * call). The shapes are deliberately LENIENT where a model is likely to go wrong (a node kind is any
 * string, a loop edge may lack its cap, ids may clash): such answers still parse, and the designer
 * repairs them locally or reports them as precise issues instead of a bare "parse failed".
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

const fieldSpec = z.object({
  key: z.string().describe("identifier, e.g. topic"),
  type: z.enum(["string", "text", "number", "boolean", "json"]).optional(),
  description: z.string().optional(),
});

/** One agent of the design: a role with instructions, tools and a model class. */
export const designAgentSchema = z.object({
  key: z.string().describe("identifier used by nodes, e.g. researcher"),
  role: z.string().describe("one line: what this agent is responsible for"),
  instructions: z.string().describe("system prompt of the agent"),
  modelClass: z.enum(modelClasses).optional(),
  /** Names of tools (registered ones, or new ones listed in profile.toolsNeeded). */
  tools: z.array(z.string()).optional(),
  /** Id of a saved agent from the context to reuse instead of a new one. */
  reuse: z.string().optional(),
});
export type DesignAgent = z.infer<typeof designAgentSchema>;

/** The PROFILE (AutoAgent's agent/workflow profiling): what the system takes, returns and needs. */
export const profileSchema = z.object({
  summary: z.string().describe("one sentence: what the system does"),
  inputs: z.array(fieldSpec),
  outputs: z.array(fieldSpec),
  patterns: z.array(z.string()).describe(`among: ${patternNames.join(", ")}`),
  agents: z.array(designAgentSchema),
  toolsNeeded: z
    .array(z.object({ name: z.string(), purpose: z.string().optional() }))
    .optional()
    .describe("every tool an agent or tool node uses"),
  /** Sample run inputs written by the model for the optional dry run. */
  sampleInputs: z.record(z.string(), z.unknown()).optional(),
});
export type Profile = z.infer<typeof profileSchema>;

export const designBranchSchema = z.object({
  id: z.string(),
  condition: z.string().optional(),
});

/** A node of the compact design form; which fields apply depends on `kind` (see the catalogue). */
export const designNodeSchema = z.object({
  id: z.string(),
  kind: z.string().describe("one of the node kinds of the catalogue"),
  name: z.string().optional(),
  agent: z.string().optional().describe("agent/orchestrator: agent key"),
  task: z.string().optional().describe("agent/orchestrator: templated task"),
  branches: z.array(designBranchSchema).optional().describe("agent/router outcomes; default one branch 'done'"),
  prompt: z.string().optional().describe("router: what the judge sees"),
  workers: z.array(z.string()).optional().describe("orchestrator: worker agent keys"),
  tool: z.string().optional().describe("tool node: tool name"),
  args: z.record(z.string(), z.unknown()).optional(),
  outputs: z.record(z.string(), z.string()).optional().describe("end: output key -> template"),
  reason: z.string().optional().describe("abort: templated reason"),
  join: z.enum(["all", "any"]).optional(),
});
export type DesignNode = z.infer<typeof designNodeSchema>;

/** An edge of the design form: from a node's branch (default: its only outcome) to a node. */
export const designEdgeSchema = z.object({
  from: z.string(),
  branch: z.string().optional(),
  to: z.string(),
  loop: z.boolean().optional().describe("true for an edge back to the node itself or an earlier node"),
  maxIterations: z.number().int().optional(),
  onExhausted: z.enum(["continue", "abort"]).optional(),
});
export type DesignEdge = z.infer<typeof designEdgeSchema>;

/** The EMITTED WORKFLOW in compact form; `compileDesign` maps it onto lib/workflow's document. */
export const designSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  variables: z.array(z.object({ key: z.string(), value: z.union([z.string(), z.number(), z.boolean()]) })).optional(),
  nodes: z.array(designNodeSchema),
  edges: z.array(designEdgeSchema),
});
export type Design = z.infer<typeof designSchema>;

/** Answer to a new-workflow request: profile and design in ONE structured call. */
export const designAnswerSchema = z.object({ profile: profileSchema, design: designSchema });
export type DesignAnswer = z.infer<typeof designAnswerSchema>;

const ref = { from: z.string(), branch: z.string().optional(), to: z.string() };

/** One edit of an existing graph. Ids of untouched nodes never change. */
export const editOperationSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("add_agent"), agent: designAgentSchema }),
  z.object({ op: z.literal("update_agent"), key: z.string(), set: designAgentSchema.partial().omit({ key: true }) }),
  z.object({ op: z.literal("remove_agent"), key: z.string() }),
  z.object({ op: z.literal("add_node"), node: designNodeSchema }),
  z.object({
    op: z.literal("update_node"),
    id: z.string(),
    set: designNodeSchema.partial().omit({ id: true, kind: true }),
  }),
  z.object({ op: z.literal("remove_node"), id: z.string(), reconnect: z.boolean().optional() }),
  /** Insert a new node on the edge from → to: the old edge goes, two new edges come. */
  z.object({ op: z.literal("insert_between"), node: designNodeSchema, ...ref }),
  z.object({ op: z.literal("add_edge"), edge: designEdgeSchema }),
  z.object({ op: z.literal("remove_edge"), ...ref }),
  z.object({ op: z.literal("set_loop_cap"), ...ref, maxIterations: z.number().int(), onExhausted: z.enum(["continue", "abort"]).optional() }),
  z.object({ op: z.literal("add_input"), field: fieldSpec }),
  z.object({ op: z.literal("set_variable"), key: z.string(), value: z.union([z.string(), z.number(), z.boolean()]) }),
]);
export type EditOperation = z.infer<typeof editOperationSchema>;

/** Answer to an edit request on an existing graph: a list of operations, never the whole graph. */
export const editAnswerSchema = z.object({
  summary: z.string(),
  operations: z.array(editOperationSchema),
  toolsNeeded: z.array(z.object({ name: z.string(), purpose: z.string().optional() })).optional(),
});
export type EditAnswer = z.infer<typeof editAnswerSchema>;

/** Schema names sent with structured calls (fixtures of the scripted model match on them). */
export const SCHEMA_NAMES = { design: "weft_design", edit: "weft_edit" } as const;
