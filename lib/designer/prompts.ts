import type { DesignIssue, SavedAgentSpec } from "./compile";
import { workflowsSection, type ContextWorkflow } from "./workflows";

/**
 * System prompts and repair messages. The node-kind catalogue is generated from lib/workflow's
 * registry (see kinds.ts), so a model only ever sees kinds that exist; the rules mirror the
 * validator; repairs quote the validator's issues verbatim.
 */

/** What the model is told about one node kind. */
export type KindInfo = { kind: string; does: string; fields: string; outcomes: string };

/**
 * What the designer may reuse: registered tools (with whether they have side effects, for the dry
 * run), saved agents (the prompt shows id, name and one line; a design reusing one gets its saved
 * instructions, tools and model) and saved workflows.
 */
export interface DesignContext {
  tools: { name: string; description?: string; sideEffect?: boolean }[];
  savedAgents: SavedAgentSpec[];
  /** Saved workflows a subflow node may run (workflows.ts); with none, `subflow` is not offered. Default none. */
  workflows?: ContextWorkflow[];
}

/** Marker in the designer's system prompts (fixtures of the scripted model match on it). */
export const DESIGNER_MARKER = "WEFT-DESIGNER";

const PATTERNS = [
  "sequential: agents one after another.",
  "routing: a router with >=2 mutually exclusive branches to different nodes; paths may join again.",
  "parallel: one outcome wired to N agents (they run concurrently, each may use its own modelClass) -> one aggregator agent joining all.",
  "evaluator-optimizer: generator -> evaluator agent with branches {approved -> next node; revise -> loop edge back to the generator}.",
  "fsm-traceback: agent states whose branches include loop edges back to earlier states (traceback) or to themselves (refine).",
  "orchestrator-workers: one orchestrator node; `workers` lists agent keys it can hand sub-tasks to.",
];

const RULES = [
  "Exactly one start node; one or more end nodes (abort for failure paths).",
  "Every node is reachable from start and can reach an end or abort.",
  "Only loop edges go back (to the node itself or an earlier node): loop:true, maxIterations >= 1, onExhausted continue|abort. No other cycles.",
  "Branch ids are unique per node; every branch has an outgoing edge; a router has >= 2 branches.",
  "An edge leaves from a branch of its source (omit `branch` when the node has a single outcome) and goes to an existing node id.",
  "Templates: {{inputs.key}}, {{vars.key}}, {{nodes.<id>.output}} of upstream nodes only, {{feedback}} in nodes re-entered by a loop.",
  "Every agent used by a node or listed as a worker is declared in profile.agents; tools are registered ones or listed in toolsNeeded.",
  "Every profile output is written by an end node: outputs {key: template}.",
  "Ids: a letter then letters, digits, _ or -.",
];

/** The catalogue section of a prompt, one line per real kind. */
export function catalogue(kinds: readonly KindInfo[]): string {
  return kinds.map((k) => `- ${k.kind}: ${k.does} Fields: ${k.fields}. Outcomes: ${k.outcomes}.`).join("\n");
}

function contextSection(ctx: DesignContext): string {
  const tools = ctx.tools.length
    ? ctx.tools.map((t) => `${t.name}${t.description ? ` (${t.description})` : ""}`).join("; ")
    : "none";
  const agents = ctx.savedAgents.length
    ? ctx.savedAgents.map((a) => `${a.id}: ${a.name}${a.description ? ` (${a.description})` : ""}`).join("; ")
    : "none";
  const workflows = workflowsSection(ctx.workflows);
  const reuse = "reuse by id in agent.reuse: it runs as saved, with its own instructions, tools and model";
  return `Registered tools: ${tools}\nSaved agents (${reuse}): ${agents}${workflows ? `\n${workflows}` : ""}`;
}

const shared = (kinds: readonly KindInfo[], ctx: DesignContext) =>
  [
    `Node kinds (no others exist):\n${catalogue(kinds)}`,
    `Patterns:\n${PATTERNS.map((p) => `- ${p}`).join("\n")}`,
    `Rules (a validator checks them):\n${RULES.map((r) => `- ${r}`).join("\n")}`,
    contextSection(ctx),
  ].join("\n\n");

/** System prompt for a new workflow: profile and design in one answer. */
export function designSystemPrompt(kinds: readonly KindInfo[], ctx: DesignContext): string {
  return [
    `${DESIGNER_MARKER} You design multi-agent workflows. From the user's request write ONE JSON object {profile, design}:`,
    "profile = inputs, outputs, patterns, agents (key, role, instructions, modelClass fast|balanced|strong, tools), toolsNeeded, sampleInputs;",
    "design = name, nodes, edges in the form below. Use as few agents as the task needs; reuse saved agents and registered tools where they fit.",
    shared(kinds, ctx),
  ].join("\n");
}

/** System prompt for an edit of an existing graph: operations only, never the whole graph. */
export function editSystemPrompt(kinds: readonly KindInfo[], ctx: DesignContext): string {
  return [
    `${DESIGNER_MARKER} You edit an existing multi-agent workflow. Answer ONE JSON object {summary, operations, toolsNeeded}.`,
    "Change only what the user asks. Keep every other node and id as it is. Operations: add_agent, update_agent, remove_agent,",
    "add_node, update_node, remove_node (reconnect:true joins its predecessors to its successors), insert_between (a new node on",
    "the edge from -> to), add_edge, remove_edge, set_loop_cap, add_input, set_variable.",
    shared(kinds, ctx),
  ].join("\n");
}

/** First user message of an edit: the request plus the current graph in design form. */
export function editUserMessage(request: string, current: unknown): string {
  return `${request}\n\nCurrent workflow:\n${JSON.stringify(current)}`;
}

/** A validator issue, or a designer issue, as one line for the model; `path` is where in the answer it is. */
export type PromptIssue = Pick<DesignIssue, "code" | "message"> & { nodeId?: string; edgeId?: string; path?: string };

/**
 * Repair message: the issues verbatim, each with where in the answer it is (its schema path), then
 * `notes` (e.g. a subflow's workflow inputs, workflows.ts), and what to answer.
 */
export function repairMessage(
  issues: readonly PromptIssue[],
  what: "design" | "edit",
  notes: readonly string[] = [],
): string {
  const lines = [...issues.map((i) => `- [${i.code}]${i.path ? ` at ${i.path}:` : ""} ${i.message}`), ...notes];
  const answer =
    what === "design"
      ? "the corrected complete JSON object {profile, design}"
      : "the corrected complete list of operations {summary, operations}";
  return `The validator found these problems:\n${lines.join("\n")}\nAnswer with ${answer}.`;
}

/** Repair message after an answer that did not parse. */
export function formatRepairMessage(error: string): string {
  return `${error}\nAnswer with only the JSON object, matching the schema.`;
}

/** Repair message after a failing dry run: the trace, then the usual request. */
export function dryRunRepairMessage(trace: string, what: "design" | "edit"): string {
  return repairMessage([{ code: "dry_run_failed", message: `The dry run on sample inputs failed:\n${trace}` }], what);
}
