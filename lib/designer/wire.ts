import * as z from "zod";
import {
  MIN_BRANCHES,
  MIN_WORKERS,
  abortNodeSchema,
  agentNodeSchema,
  agentSpecSchema,
  branchSchema,
  edgeSchema,
  endNodeSchema,
  fieldSchema,
  humanNodeSchema,
  identifier,
  mapNodeSchema,
  nodeKinds,
  orchestratorNodeSchema,
  routerNodeSchema,
  subflowNodeSchema,
  toolNodeSchema,
  toolRefSchema,
  variableSchema,
  type NodeKind,
} from "@/lib/workflow/schema";
import { modelClasses, patternNames } from "./schemas";

/**
 * The answer schemas the designer SENDS (structured output), derived from lib/workflow's document
 * schema so they cannot drift from the validator: a discriminated union on `kind` with one object per
 * node kind holding only that kind's fields, identifiers with lib/workflow's pattern, enums for kinds,
 * model classes, join modes, patterns, field types, exhaustion policies, saved agents and saved
 * workflows; edges are a union of forward and loop edges (a loop edge must carry its cap). What a
 * schema cannot say is in the descriptions. The designer READS answers leniently (read.ts), so a
 * model that ignores the schema still gets its answer repaired rather than refused.
 */

/** What the schema depends on besides lib/workflow. Default: no saved agents, no saved workflows. */
export interface WireContext {
  /** Saved agents a design may reuse (`reuse` is an enum of their ids; absent without any). */
  savedAgentIds?: readonly string[];
  /** Saved workflows a subflow may run (the `subflow` kind is offered only with some). */
  workflowIds?: readonly string[];
}

/** The graph an edit starts from: existing node ids and agent keys become enums where an op must name one. */
export interface EditBase {
  nodeIds: readonly string[];
  agentKeys: readonly string[];
}

/** A ZodDefault/ZodOptional stripped to the type it wraps (lib/workflow's defaults are not the model's business). */
function bare<T extends z.ZodType>(schema: T): z.ZodType {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodDefault || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
  return s;
}

/**
 * A map's items: one tag that can give a list (an input, a variable, or an upstream node's output,
 * with an optional path). lib/workflow's template syntax, narrowed to what `staticItemsProblem`
 * accepts as a lone tag; text around a tag would render text, not a list.
 */
export const LIST_TAG_PATTERN =
  "^\\{\\{(inputs\\.[A-Za-z0-9_-]+|vars\\.[A-Za-z0-9_-]+|nodes\\.[A-Za-z0-9_-]+\\.output)(\\.[A-Za-z0-9_-]+)*\\}\\}$";

/** Said once (on the node list); templated fields say "Template." */
const TEMPLATES =
  "Templates: {{inputs.<key>}}, {{vars.<key>}}, {{nodes.<id>.output}} of an upstream node, {{feedback}} in a node a loop re-enters, {{item}} in a map's task.";
const TEMPLATE_HELP = "Template.";

/** Shared pieces: one zod instance each, so the JSON schema states them once ($defs). */
function pieces(ctx: WireContext) {
  const agentKey = identifier.describe("The key of an agent declared in profile.agents.");
  const nodeRef = identifier.describe("The id of a node of this design.");
  const branch = z
    .object({
      id: branchSchema.shape.id.describe("Unique among this node's branches; an edge leaves from it."),
      condition: bare(branchSchema.shape.condition).describe(
        "When this branch is taken (what the deciding model reads).",
      ),
    })
    .describe("An outcome of the node.");
  const join = bare(agentNodeSchema.shape.join).describe(
    "With several incoming edges: wait for all, or go on at the first.",
  );
  const name = bare(agentNodeSchema.shape.name).describe("Display name.");
  const templates = z.record(z.string(), z.string());
  const workflowIds = ctx.workflowIds?.length ? z.enum(ctx.workflowIds as [string, ...string[]]) : undefined;
  return { agentKey, nodeRef, branch, join, name, templates, workflowIds };
}

type Pieces = ReturnType<typeof pieces>;

/** Per kind: the design-form fields, each from lib/workflow's node schema of that kind. Keyed by NodeKind. */
function kindFields(p: Pieces): { [K in NodeKind]: z.ZodRawShape } {
  const branches = (min: number, about: string) => z.array(p.branch).min(min).describe(about);
  return {
    start: {},
    agent: {
      agent: p.agentKey,
      task: bare(agentNodeSchema.shape.task).describe(`What the agent does here. ${TEMPLATE_HELP}`),
      branches: branches(MIN_BRANCHES.agent, "Its outcomes; omit for one outcome `done`.").optional(),
      join: p.join.optional(),
    },
    router: {
      prompt: bare(routerNodeSchema.shape.prompt).describe(`What the judge reads to pick a branch. ${TEMPLATE_HELP}`),
      branches: branches(MIN_BRANCHES.router, "The mutually exclusive routes."),
      join: p.join.optional(),
    },
    tool: {
      tool: toolRefSchema.shape.name.describe("A registered tool's name, or one listed in profile.toolsNeeded."),
      args: bare(toolNodeSchema.shape.args)
        .describe(`Argument name -> value; strings are templates. ${TEMPLATE_HELP}`)
        .optional(),
      join: p.join.optional(),
    },
    orchestrator: {
      agent: p.agentKey,
      task: bare(orchestratorNodeSchema.shape.task).describe(`What the orchestrator coordinates. ${TEMPLATE_HELP}`),
      workers: z.array(p.agentKey).min(MIN_WORKERS).describe("Agent keys it hands sub-tasks to; never its own agent."),
      join: p.join.optional(),
    },
    human: {
      prompt: bare(humanNodeSchema.shape.prompt).describe(`What the person is asked. ${TEMPLATE_HELP}`),
      branches: branches(MIN_BRANCHES.human, "The choices offered; omit for approve / reject.").optional(),
      join: p.join.optional(),
    },
    subflow: {
      workflowId: (p.workflowIds ?? bare(subflowNodeSchema.shape.workflowId)).describe("Which saved workflow to run."),
      inputs: bare(subflowNodeSchema.shape.inputs).describe(`That workflow's input key -> template. ${TEMPLATE_HELP}`),
      join: p.join.optional(),
    },
    map: {
      items: z
        .string()
        .regex(new RegExp(LIST_TAG_PATTERN))
        .describe(
          "The list to go over, one tag and nothing else: {{nodes.<id>.output}} of an upstream agent asked to answer a JSON list ({{nodes.<id>.output.results}} of an upstream map), {{inputs.<key>}} of a json input, or {{vars.<key>}} holding a list.",
        ),
      agent: p.agentKey.describe("The agent run once per item."),
      task: bare(agentNodeSchema.shape.task).describe(
        `What the agent does with one item; {{item}} is the item. ${TEMPLATE_HELP}`,
      ),
      concurrency: bare(mapNodeSchema.shape.concurrency).describe("Items run at once (default 4).").optional(),
      onItemError: bare(mapNodeSchema.shape.onItemError)
        .describe("A failed item: fail the map, skip it, or collect its error in its place.")
        .optional(),
      join: p.join.optional(),
    },
    end: {
      outputs: bare(endNodeSchema.shape.outputs).describe(
        `Output key (declared in profile.outputs) -> template. ${TEMPLATE_HELP}`,
      ),
      join: p.join.optional(),
    },
    abort: {
      reason: bare(abortNodeSchema.shape.reason).describe(`Why the run is aborted. ${TEMPLATE_HELP}`).optional(),
      join: p.join.optional(),
    },
  };
}

let fieldNames: { [K in NodeKind]: string[] } | undefined;

/** The design-form fields of a kind besides `id`, `kind` and `name` (what the union member for it holds). */
export function designFieldsOf(kind: NodeKind): string[] {
  fieldNames ??= Object.fromEntries(
    Object.entries(kindFields(pieces({}))).map(([k, shape]) => [k, Object.keys(shape)]),
  ) as { [K in NodeKind]: string[] };
  return fieldNames[kind] ?? [];
}

/** The kinds a design may hold: every lib/workflow kind, `subflow` only when saved workflows are offered. */
export function offeredKinds(ctx: WireContext = {}): NodeKind[] {
  return nodeKinds.filter((k) => k !== "subflow" || (ctx.workflowIds?.length ?? 0) > 0);
}

/** One design node: a union member per offered kind, discriminated by `kind`. */
function nodeUnion(p: Pieces, ctx: WireContext) {
  const fields = kindFields(p);
  const members = offeredKinds(ctx).map((kind) =>
    z.object({
      kind: z.literal(kind),
      id: p.nodeRef.describe("Unique node id."),
      name: p.name.optional(),
      ...fields[kind],
    }),
  );
  return z.discriminatedUnion("kind", members as unknown as [z.ZodObject, ...z.ZodObject[]]);
}

/** A forward edge, or a loop edge (back to the node itself or an earlier node) that must carry its cap. */
function edgeUnion(p: Pieces) {
  const ends = {
    from: p.nodeRef,
    branch: identifier
      .describe("A branch id of `from`; omit when it has one outcome (start, tool, orchestrator, subflow).")
      .optional(),
    to: p.nodeRef,
  };
  const forward = z.object({ ...ends, loop: z.literal(false).optional() }).describe("Forward edge: data and control.");
  const loop = z
    .object({
      ...ends,
      loop: z.literal(true),
      maxIterations: (bare(edgeSchema.shape.maxIterations) as z.ZodNumber).min(1).describe("How often it may go back."),
      onExhausted: bare(edgeSchema.shape.onExhausted).describe(
        "After the last iteration: continue on the node's other outcome, or abort.",
      ),
    })
    .describe("Loop edge: goes back to `to`, upstream of `from` (or `from` itself).");
  return z.union([forward, loop]);
}

/** A design agent: a role with instructions, tools, a model class, or a saved agent to reuse. */
function agentSchema(p: Pieces, ctx: WireContext) {
  const reuse = ctx.savedAgentIds?.length
    ? {
        reuse: z
          .enum(ctx.savedAgentIds as [string, ...string[]])
          .describe("A saved agent to reuse as it is saved.")
          .optional(),
      }
    : {};
  return z.object({
    key: agentSpecSchema.shape.key.describe("Unique agent key; nodes name it in `agent` / `workers`."),
    role: z.string().describe("One line: what this agent is responsible for."),
    instructions: bare(agentSpecSchema.shape.instructions).describe("Its system prompt."),
    modelClass: z.enum(modelClasses).optional(),
    tools: z
      .array(toolRefSchema.shape.name)
      .describe("Registered tool names or ones in profile.toolsNeeded.")
      .optional(),
    ...reuse,
  });
}

const fieldSpec = fieldSchema.pick({ key: true }).extend({
  type: bare(fieldSchema.shape.type).optional(),
  description: bare(fieldSchema.shape.description).optional(),
});
const toolNeeded = z.object({ name: toolRefSchema.shape.name, purpose: z.string().optional() });
const variable = variableSchema.pick({ key: true, value: true });

/** The answer to a new-workflow request: {profile, design}. */
export function designWireSchema(ctx: WireContext = {}) {
  const p = pieces(ctx);
  const agent = agentSchema(p, ctx);
  const profile = z.object({
    summary: z.string().describe("One sentence: what the system does."),
    inputs: z.array(fieldSpec).describe("What a run takes; read as {{inputs.<key>}}."),
    outputs: z.array(fieldSpec).describe("What a run returns; every one written by an end node."),
    patterns: z.array(z.enum(patternNames)),
    agents: z.array(agent),
    toolsNeeded: z.array(toolNeeded).describe("Tools used that are not registered (they get created).").optional(),
    sampleInputs: z.record(z.string(), z.unknown()).describe("Input key -> sample value for a dry run.").optional(),
  });
  const design = z.object({
    name: z.string(),
    description: z.string().optional(),
    variables: z.array(variable).describe("Read as {{vars.<key>}}.").optional(),
    nodes: z.array(nodeUnion(p, ctx)).min(2).describe(`Exactly one start node and at least one end node. ${TEMPLATES}`),
    edges: z.array(edgeUnion(p)).describe("Every node reachable from start and able to reach an end or abort."),
  });
  return z.object({ profile, design });
}

/** The answer to an edit request: {summary, operations}. Ops naming an existing node or agent use enums. */
export function editWireSchema(ctx: WireContext = {}, base: EditBase = { nodeIds: [], agentKeys: [] }) {
  const p = pieces(ctx);
  const agent = agentSchema(p, ctx);
  const node = nodeUnion(p, ctx);
  const existing = (ids: readonly string[], about: string) =>
    (ids.length ? z.enum(ids as [string, ...string[]]) : identifier).describe(about);
  const nodeId = existing(base.nodeIds, "An existing node's id.");
  const agentKey = existing(base.agentKeys, "An existing agent's key.");
  const set = z.object(Object.assign({}, ...Object.values(kindFields(p)), { name: p.name })).partial();
  const ref = { from: nodeId, branch: identifier.optional(), to: nodeId };
  const capped = {
    maxIterations: (bare(edgeSchema.shape.maxIterations) as z.ZodNumber).min(1),
    onExhausted: bare(edgeSchema.shape.onExhausted).optional(),
  };
  const op = z.discriminatedUnion("op", [
    z.object({ op: z.literal("add_agent"), agent }),
    z.object({ op: z.literal("update_agent"), key: agentKey, set: agent.omit({ key: true }).partial() }),
    z.object({ op: z.literal("remove_agent"), key: agentKey }),
    z.object({ op: z.literal("add_node"), node }),
    z.object({ op: z.literal("update_node"), id: nodeId, set: set.describe("Only the fields to change.") }),
    z.object({ op: z.literal("remove_node"), id: nodeId, reconnect: z.boolean().optional() }),
    z.object({ op: z.literal("insert_between"), node, ...ref }).describe("A new node on the edge from -> to."),
    z.object({ op: z.literal("add_edge"), edge: edgeUnion(p) }),
    z.object({ op: z.literal("remove_edge"), ...ref }),
    z.object({ op: z.literal("set_loop_cap"), ...ref, ...capped }),
    z.object({ op: z.literal("add_input"), field: fieldSpec }),
    z.object({ op: z.literal("set_variable"), ...variable.shape }),
  ]);
  return z.object({
    summary: z.string().describe("One sentence: what changes."),
    operations: z.array(op).describe(`Applied in order; untouched nodes keep their ids. ${TEMPLATES}`),
    toolsNeeded: z.array(toolNeeded).optional(),
  });
}
