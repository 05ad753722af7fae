import { compileExpression } from "./expression";
import { buildGraph, reachableFromStart, type Graph } from "./graph";
import { issue, q, qs, type ValidationIssue } from "./issues";
import type { RunLimitCeilings } from "./limits";
import {
  MIN_BRANCHES,
  MIN_WORKERS,
  outcomesOf,
  type ModelRef,
  type NodeOf,
  type ToolRef,
  type Workflow,
  type WorkflowNode,
} from "./schema";

/** What the surrounding app knows; each part given switches the matching existence check on. */
export type ValidationContext = {
  /** Names of the tools in the user's registry. */
  tools?: readonly string[];
  /** Configured models; a ref matches on model name and, when both name one, provider. */
  models?: readonly { provider?: string; model: string }[];
  /** Ids of the user's saved agents (for agents that reference one). */
  savedAgentIds?: readonly string[];
  /** The owner's workflows a subflow node may run, each with the input fields of what it would run (see SubflowWorkflow). */
  workflows?: readonly SubflowWorkflow[];
  /** The server's ceilings on run limits (limits.ts): every limit above them is an error. */
  ceilings?: RunLimitCeilings;
};

/** An input field as subflow validation needs it. */
type InputKey = { key: string; required: boolean };

/**
 * A workflow a subflow node may run: the input fields of what an unpinned node runs (its newest
 * saved version); with `version` (the newest saved number, null while nothing is saved) a pinned
 * version above it is reported, and with `history` (each saved version where the fields changed,
 * from that version on) a pinned older version is checked against its own fields.
 */
export type SubflowWorkflow = {
  id: string;
  name: string;
  inputs: readonly InputKey[];
  version?: number | null;
  history?: readonly { from: number; inputs: readonly InputKey[] }[];
};

const label = (node: WorkflowNode) =>
  node.type === "router" ? "router" : node.type === "human" ? "human review" : "node";
const hasBranches = (node: WorkflowNode): node is NodeOf<"agent" | "router" | "human"> =>
  node.type === "agent" || node.type === "router" || node.type === "human";

/** Branch ids, wiring of every outcome, router branch counts and expression-mode branches. */
export function checkBranches(doc: Workflow, graph: Graph = buildGraph(doc)): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const node of doc.nodes) {
    if (hasBranches(node)) {
      const ids = node.branches.map((b) => b.id);
      for (const id of new Set(ids.filter((b, i) => ids.indexOf(b) !== i))) {
        issues.push(
          issue("duplicate_branch_id", `Node ${q(node.id)} has more than one branch with id ${q(id)}.`, {
            nodeId: node.id,
            branchId: id,
          }),
        );
      }
    }
    if (node.type === "agent" && node.branches.length < MIN_BRANCHES.agent) {
      issues.push(
        issue("no_branches", `Agent node ${q(node.id)} has no branches; it needs at least one (e.g. "done").`, {
          nodeId: node.id,
        }),
      );
    }
    if (node.type === "router") issues.push(...checkRouter(node));
    if (node.type === "human") issues.push(...checkHuman(node));
    issues.push(...checkWiring(node, graph));
  }
  return issues;
}

function checkWiring(node: WorkflowNode, graph: Graph): ValidationIssue[] {
  const wired = new Set(
    [...(graph.forwardOut.get(node.id) ?? []), ...(graph.loopOut.get(node.id) ?? [])].map((e) => e.sourceHandle),
  );
  // a tool node's error outcome is optional (unwired, a failure fails the run) unless its policy takes it
  const optional = node.type === "tool" && node.onError?.onExhausted !== "error_branch" ? ["error"] : [];
  return [...new Set(outcomesOf(node))]
    .filter((handle) => !wired.has(handle) && !optional.includes(handle))
    .map((handle) => {
      const what = hasBranches(node) ? "Branch" : "Outcome";
      return issue(
        "unwired_branch",
        `${what} ${q(handle)} of ${label(node)} ${q(node.id)} is not wired; connect it to a node, or to an end or abort node to end the path there.`,
        { nodeId: node.id, branchId: handle },
      );
    });
}

/** A human review offers at least one choice; its fields are keyed uniquely; its choice on timeout is one of them. */
function checkHuman(node: NodeOf<"human">): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const at = { nodeId: node.id };
  if (node.branches.length < MIN_BRANCHES.human)
    issues.push(
      issue(
        "no_branches",
        `Human review ${q(node.id)} offers no choice; it needs at least one branch (e.g. "approve").`,
        at,
      ),
    );
  const keys = node.fields.map((f) => f.key);
  for (const key of new Set(keys.filter((k, i) => keys.indexOf(k) !== i))) {
    issues.push(issue("duplicate_field", `Human review ${q(node.id)} has more than one field with key ${q(key)}.`, at));
  }
  if (node.timeoutChoice !== undefined && !node.branches.some((b) => b.id === node.timeoutChoice)) {
    issues.push(
      issue(
        "human_timeout_choice_unknown",
        `Human review ${q(node.id)} takes ${q(node.timeoutChoice)} when nobody answers, which is not one of its choices (${qs(node.branches.map((b) => b.id))}).`,
        at,
      ),
    );
  }
  if (node.timeoutChoice !== undefined && node.timeoutMs === undefined) {
    issues.push(
      issue(
        "human_timeout_choice_unused",
        `Human review ${q(node.id)} has a choice for when nobody answers but no timeout, so it waits until someone does.`,
        at,
      ),
    );
  }
  return issues;
}

function checkRouter(node: NodeOf<"router">): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const at = { nodeId: node.id };
  const n = node.branches.length;
  if (n < MIN_BRANCHES.router) {
    issues.push(
      issue(
        "router_too_few_branches",
        `Router ${q(node.id)} has ${n} branch${n === 1 ? "" : "es"}; a router needs at least ${MIN_BRANCHES.router}.`,
        at,
      ),
    );
  }
  if (node.mode !== "expression") return issues;
  const defaults = node.branches.filter((b) => b.default);
  if (defaults.length === 0) {
    issues.push(
      issue(
        "router_default_missing",
        `Router ${q(node.id)} in expression mode needs exactly one default branch (taken when no expression holds); it has none.`,
        at,
      ),
    );
  } else if (defaults.length > 1) {
    issues.push(
      issue(
        "router_multiple_defaults",
        `Router ${q(node.id)} in expression mode needs exactly one default branch; it has ${defaults.length} (${qs(defaults.map((b) => b.id))}).`,
        at,
      ),
    );
  }
  for (const branch of node.branches) {
    const where = { nodeId: node.id, branchId: branch.id };
    const expression = branch.expression?.trim() ?? "";
    if (branch.default) {
      if (expression !== "")
        issues.push(
          issue(
            "default_has_expression",
            `Default branch ${q(branch.id)} of router ${q(node.id)} has an expression, which is ignored.`,
            where,
          ),
        );
      continue;
    }
    if (expression === "") {
      issues.push(
        issue(
          "expression_missing",
          `Branch ${q(branch.id)} of router ${q(node.id)} has no expression; in expression mode every branch but the default needs one.`,
          where,
        ),
      );
      continue;
    }
    const compiled = compileExpression(expression);
    if (!compiled.ok)
      issues.push(
        issue(
          "expression_invalid",
          `Branch ${q(branch.id)} of router ${q(node.id)}: ${compiled.error.message}.`,
          where,
        ),
      );
  }
  return issues;
}

/** Agents: keys, references from nodes, saved agents, unused ones; orchestrator workers. */
export function checkAgents(doc: Workflow, ctx: ValidationContext): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const keys = doc.agents.map((a) => a.key);
  for (const key of new Set(keys.filter((k, i) => keys.indexOf(k) !== i))) {
    issues.push(issue("duplicate_agent_key", `Agent key ${q(key)} is used by more than one agent.`, { agentKey: key }));
  }
  const known = new Set(keys);
  const used = new Set<string>();
  for (const node of doc.nodes) {
    if (node.type === "map" && node.body.type === "agent") {
      used.add(node.body.agent);
      if (node.body.agent !== "" && !known.has(node.body.agent)) {
        issues.push(
          issue(
            "unknown_agent",
            `Map node ${q(node.id)} runs agent ${q(node.body.agent)} for each item, which is not defined in the workflow's agents.`,
            { nodeId: node.id, field: "body.agent" },
          ),
        );
      }
    }
    if (node.type !== "agent" && node.type !== "orchestrator") continue;
    used.add(node.agent);
    if (!known.has(node.agent)) {
      issues.push(
        issue(
          "unknown_agent",
          `Node ${q(node.id)} uses agent ${q(node.agent)}, which is not defined in the workflow's agents.`,
          { nodeId: node.id },
        ),
      );
    }
    if (node.type === "orchestrator") issues.push(...checkWorkers(node, known, used));
  }
  for (const agent of doc.agents) {
    const at = { agentKey: agent.key };
    if (agent.savedAgentId !== undefined && ctx.savedAgentIds && !ctx.savedAgentIds.includes(agent.savedAgentId)) {
      issues.push(
        issue(
          "unknown_saved_agent",
          `Agent ${q(agent.key)} refers to saved agent ${q(agent.savedAgentId)}, which does not exist.`,
          at,
        ),
      );
    }
    if (!used.has(agent.key)) issues.push(issue("unused_agent", `Agent ${q(agent.key)} is not used by any node.`, at));
  }
  return issues;
}

function checkWorkers(node: NodeOf<"orchestrator">, known: Set<string>, used: Set<string>): ValidationIssue[] {
  const at = { nodeId: node.id };
  const issues: ValidationIssue[] = [];
  if (node.workers.length < MIN_WORKERS)
    issues.push(issue("orchestrator_no_workers", `Orchestrator ${q(node.id)} has no workers to hand work to.`, at));
  node.workers.forEach((worker, i) => {
    used.add(worker);
    if (node.workers.indexOf(worker) !== i)
      issues.push(
        issue("duplicate_worker", `Orchestrator ${q(node.id)} lists worker ${q(worker)} more than once.`, at),
      );
    else if (worker === node.agent)
      issues.push(
        issue(
          "orchestrator_self_worker",
          `Orchestrator ${q(node.id)} lists its own agent ${q(worker)} as a worker.`,
          at,
        ),
      );
    else if (!known.has(worker))
      issues.push(
        issue(
          "orchestrator_unknown_worker",
          `Orchestrator ${q(node.id)} hands work to ${q(worker)}, which is not defined in the workflow's agents.`,
          at,
        ),
      );
  });
  return issues;
}

/** Tools (placeholders always fail; registry membership when `ctx.tools` is given) and models. */
export function checkToolsAndModels(doc: Workflow, ctx: ValidationContext): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const tool = (ref: ToolRef, owner: string, at: { nodeId?: string; agentKey?: string }) => {
    if (ref.placeholder)
      issues.push(
        issue("tool_placeholder", `${owner} uses tool ${q(ref.name)}, a placeholder that still has to be created.`, at),
      );
    else if (ctx.tools && !ctx.tools.includes(ref.name))
      issues.push(issue("unknown_tool", `${owner} uses tool ${q(ref.name)}, which is not in the tool registry.`, at));
  };
  const model = (ref: ModelRef | undefined, owner: string, at: { nodeId?: string; agentKey?: string }) => {
    if (!ref || !ctx.models) return;
    const ok = ctx.models.some(
      (m) =>
        m.model === ref.model &&
        (ref.provider === undefined || m.provider === undefined || m.provider === ref.provider),
    );
    const name = ref.provider ? `${ref.provider}/${ref.model}` : ref.model;
    if (!ok) issues.push(issue("unknown_model", `${owner} names model ${q(name)}, which is not configured.`, at));
  };
  model(doc.defaultModel, "The workflow's default model", {});
  for (const agent of doc.agents) {
    const at = { agentKey: agent.key };
    for (const ref of agent.tools) tool(ref, `Agent ${q(agent.key)}`, at);
    model(agent.model, `Agent ${q(agent.key)}`, at);
  }
  for (const node of doc.nodes) {
    if (node.type === "tool") tool(node.tool, `Tool node ${q(node.id)}`, { nodeId: node.id });
    if (node.type === "map" && node.body.type === "tool")
      tool(node.body.tool, `Map node ${q(node.id)}`, { nodeId: node.id });
    if (node.type === "router" && node.mode === "llm") model(node.model, `Router ${q(node.id)}`, { nodeId: node.id });
  }
  return issues;
}

/** Declared inputs/outputs/variables are unique; every output is written by a reachable end. */
export function checkInputsOutputs(doc: Workflow, graph: Graph = buildGraph(doc)): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const dupes = (keys: string[]) => [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))];
  for (const key of dupes(doc.inputs.map((f) => f.key)))
    issues.push(issue("duplicate_input_key", `Input ${q(key)} is declared more than once.`));
  for (const key of dupes(doc.outputs.map((f) => f.key)))
    issues.push(issue("duplicate_output_key", `Output ${q(key)} is declared more than once.`));
  for (const key of dupes(doc.variables.map((v) => v.key)))
    issues.push(issue("duplicate_variable_key", `Variable ${q(key)} is declared more than once.`));
  // Without a start node every end counts (no_start_node is the one issue to fix first).
  const reachable = graph.start ? reachableFromStart(graph) : new Set(graph.nodes.keys());
  const ends = doc.nodes.filter((n): n is NodeOf<"end"> => n.type === "end");
  const declared = new Set(doc.outputs.map((f) => f.key));
  for (const output of doc.outputs) {
    if (!ends.some((end) => reachable.has(end.id) && Object.hasOwn(end.outputs, output.key))) {
      issues.push(issue("output_not_written", `Output ${q(output.key)} is not written by any reachable end node.`));
    }
  }
  for (const end of ends) {
    for (const key of Object.keys(end.outputs).filter((k) => !declared.has(k))) {
      issues.push(
        issue("end_output_undeclared", `End node ${q(end.id)} writes ${q(key)}, which is not a declared output.`, {
          nodeId: end.id,
          field: `outputs.${key}`,
        }),
      );
    }
  }
  return issues;
}
