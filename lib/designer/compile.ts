import type { z } from "zod";
import {
  type nodeSchema,
  outcomesOf,
  workflowSchema,
  type AgentSpec,
  type Edge,
  type ModelRef,
  type ToolRef,
  type Workflow,
  type WorkflowNode,
} from "@/lib/workflow/schema";
import type { Design, DesignAgent, DesignEdge, DesignNode, ModelClass, Profile } from "./schemas";
import { MAP_MAX_CONCURRENCY } from "@/lib/workflow/map";

/**
 * The compact design form ⇄ lib/workflow's document. The design form is what models write (short,
 * edges by branch name, no edge ids); the document is the only graph model, so everything the
 * designer proposes is compiled into it and validated there.
 */

/** A problem that the document cannot even represent (e.g. an unknown node kind). */
export type DesignIssue = { code: string; message: string; nodeId?: string; edgeId?: string };

/** A document node before defaults are applied. */
export type NodeInput = z.input<typeof nodeSchema>;

/** Real node kinds (the discriminant of lib/workflow's node union). */
export type KnownKind = WorkflowNode["type"];

/** Model per class; a class without an entry uses the workflow default model. Default: none. */
export type ModelClassMap = Partial<Record<ModelClass, ModelRef>>;

/** A saved agent as a design reusing it gets it: its saved instructions, tools and model. */
export type SavedAgentSpec = {
  id: string;
  name: string;
  description?: string;
  instructions?: string;
  tools?: ToolRef[];
  model?: ModelRef | null;
};

/** Compile options: known kinds come from lib/workflow's registry. */
export interface CompileOptions {
  kinds: readonly string[];
  models?: ModelClassMap;
  /** The user's saved agents: an agent reusing one runs with its saved instructions, tools and model. Default none. */
  savedAgents?: readonly SavedAgentSpec[];
}

/** The outcome an edge leaves from when the design names none: the node's only outcome. */
export function defaultHandle(node: WorkflowNode): string | undefined {
  const outcomes = outcomesOf(node);
  return outcomes.length >= 1 ? outcomes[0] : undefined;
}

/** Edge id derived from its ends, unique within `taken`. */
export function edgeId(from: string, handle: string, to: string, taken: Set<string>): string {
  const base = `${from}__${handle}__${to}`.replace(/[^A-Za-z0-9_-]/g, "_").replace(/^[^A-Za-z]+/, "e");
  let id = base.slice(0, 60);
  for (let i = 2; taken.has(id); i++) id = `${base.slice(0, 56)}_${i}`;
  taken.add(id);
  return id;
}

/**
 * AgentSpec of a design agent; `models` maps its class to a configured model. An agent reusing a
 * saved agent found in `saved` is that agent as saved (instructions, tools, model; the model's own
 * text for them is not used), like an agent dropped from the editor's palette.
 */
export function compileAgent(
  agent: DesignAgent,
  models: ModelClassMap = {},
  saved: readonly SavedAgentSpec[] = [],
): AgentSpec {
  const reused = agent.reuse ? saved.find((a) => a.id === agent.reuse) : undefined;
  if (reused) return savedAgentSpec(agent.key, reused);
  const model = agent.modelClass ? models[agent.modelClass] : undefined;
  const role = agent.role.trim() || agent.key;
  return {
    key: agent.key,
    name: role.length <= 60 ? role : agent.key,
    description: role,
    instructions: agent.instructions,
    tools: (agent.tools ?? []).map((name) => ({ name })),
    ...(model ? { model } : {}),
    ...(agent.reuse ? { savedAgentId: agent.reuse } : {}),
  };
}

/** The AgentSpec of a saved agent under `key` (what the editor's palette drops into a workflow). */
export function savedAgentSpec(key: string, a: SavedAgentSpec): AgentSpec {
  return {
    key,
    name: a.name.trim() || key,
    description: a.description ?? "",
    instructions: a.instructions ?? "",
    tools: a.tools ?? [],
    ...(a.model ? { model: a.model } : {}),
    savedAgentId: a.id,
  };
}

const DONE = [{ id: "done", label: "Done", condition: "" }];

/** One design node as a document node input (undefined for an unknown kind). */
export function compileNode(node: DesignNode): NodeInput | undefined {
  const base = { id: node.id, name: node.name ?? "", ...(node.join ? { join: node.join } : {}) };
  const branches = node.branches?.map((b) => ({ id: b.id, label: b.id, condition: b.condition ?? "" }));
  switch (node.kind) {
    case "start":
      return { ...base, type: "start" };
    case "agent":
      return {
        ...base,
        type: "agent",
        agent: node.agent ?? "",
        task: node.task ?? "",
        branches: branches?.length ? branches : DONE,
      };
    case "router":
      return { ...base, type: "router", prompt: node.prompt ?? node.task ?? "", branches: branches ?? [] };
    case "tool":
      return { ...base, type: "tool", tool: { name: node.tool ?? "" }, args: node.args ?? {} };
    case "orchestrator":
      return {
        ...base,
        type: "orchestrator",
        agent: node.agent ?? "",
        task: node.task ?? "",
        workers: node.workers ?? [],
      };
    case "human":
      return {
        ...base,
        type: "human",
        prompt: node.prompt ?? node.task ?? "",
        ...(branches?.length ? { branches } : {}),
      };
    case "subflow":
      return { ...base, type: "subflow", ...subflowFields(node) };
    case "map":
      return {
        ...base,
        type: "map",
        items: node.items ?? "",
        body: { type: "agent", agent: node.agent ?? "", task: node.task ?? "{{item}}" },
        ...(node.concurrency !== undefined
          ? { concurrency: Math.min(Math.max(1, node.concurrency), MAP_MAX_CONCURRENCY) }
          : {}),
        ...(node.onItemError ? { onItemError: node.onItemError } : {}),
      };
    case "end":
      return { ...base, type: "end", outputs: node.outputs ?? {} };
    case "abort":
      return { ...base, type: "abort", reason: node.reason ?? "Aborted" };
    default:
      return undefined;
  }
}

/** Document edges of the design edges whose ends exist (dangling ones are reported as issues). */
export function compileEdges(
  edges: DesignEdge[],
  nodes: WorkflowNode[],
  taken = new Set<string>(),
): { edges: Edge[]; issues: DesignIssue[] } {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out: Edge[] = [];
  const issues: DesignIssue[] = [];
  for (const e of edges) {
    const source = byId.get(e.from);
    if (!source || !byId.has(e.to)) {
      const missing = source ? e.to : e.from;
      issues.push({
        code: "dangling_edge",
        message: `Edge ${e.from} -> ${e.to} refers to node "${missing}", which does not exist.`,
      });
      continue;
    }
    const handle = e.branch ?? defaultHandle(source) ?? "done";
    out.push({
      id: edgeId(e.from, handle, e.to, taken),
      source: e.from,
      sourceHandle: handle,
      target: e.to,
      kind: e.loop ? "loop" : "forward",
      ...(e.maxIterations !== undefined ? { maxIterations: e.maxIterations } : {}),
      ...(e.onExhausted ? { onExhausted: e.onExhausted } : {}),
    });
  }
  return { edges: out, issues };
}

/** Compiles a design (plus its profile) into a workflow document, reporting what cannot be represented. */
export function compileDesign(
  design: Design,
  profile: Pick<Profile, "inputs" | "outputs" | "agents" | "summary">,
  options: CompileOptions,
): { workflow?: Workflow; issues: DesignIssue[] } {
  const issues: DesignIssue[] = [];
  const nodes: NodeInput[] = [];
  for (const n of design.nodes) {
    const compiled = options.kinds.includes(n.kind) ? compileNode(n) : undefined;
    if (compiled) nodes.push(compiled);
    else
      issues.push({
        code: "unknown_node_kind",
        nodeId: n.id,
        message: `Node "${n.id}" has kind "${n.kind}", which is not one of: ${options.kinds.join(", ")}.`,
      });
  }
  const draft = {
    name: design.name,
    description: design.description ?? profile.summary,
    inputs: profile.inputs,
    outputs: profile.outputs,
    variables: design.variables ?? [],
    agents: profile.agents.map((a) => compileAgent(a, options.models, options.savedAgents)),
    nodes,
    edges: [],
  };
  const parsed = workflowSchema.safeParse(draft);
  if (!parsed.success) {
    for (const i of parsed.error.issues) issues.push({ code: "schema", message: `${i.path.join(".")}: ${i.message}` });
    return { issues };
  }
  const { edges, issues: edgeIssues } = compileEdges(design.edges, parsed.data.nodes);
  return { workflow: { ...parsed.data, edges }, issues: [...issues, ...edgeIssues] };
}

/** The design form of a document (what the model sees of an existing graph when asked for edits). */
export function toDesign(wf: Workflow): { design: Design; agents: DesignAgent[] } {
  const nodes: DesignNode[] = wf.nodes.map((n) => {
    const base = { id: n.id, kind: n.type, ...(n.name ? { name: n.name } : {}) };
    switch (n.type) {
      case "agent":
        return {
          ...base,
          agent: n.agent,
          task: n.task,
          branches: n.branches.map((b) => ({ id: b.id, condition: b.condition })),
        };
      case "router":
        return { ...base, prompt: n.prompt, branches: n.branches.map((b) => ({ id: b.id, condition: b.condition })) };
      case "tool":
        return { ...base, tool: n.tool.name, args: n.args };
      case "orchestrator":
        return { ...base, agent: n.agent, task: n.task, workers: n.workers };
      case "human":
        return { ...base, prompt: n.prompt, branches: n.branches.map((b) => ({ id: b.id, condition: b.condition })) };
      case "subflow":
        return {
          ...base,
          workflowId: n.workflowId,
          inputs: n.inputs,
          ...(n.version !== undefined ? { version: n.version } : {}),
        };
      case "map":
        // a tool body has no design form: the model sees the map's list and settings, not its body
        return {
          ...base,
          items: n.items,
          concurrency: n.concurrency,
          onItemError: n.onItemError,
          ...(n.body.type === "agent" ? { agent: n.body.agent, task: n.body.task } : {}),
        };
      case "end":
        return { ...base, outputs: n.outputs };
      case "abort":
        return { ...base, reason: n.reason };
      case "start":
        return base;
    }
  });
  const edges: DesignEdge[] = wf.edges.map((e) => ({
    from: e.source,
    branch: e.sourceHandle,
    to: e.target,
    ...(e.kind === "loop" ? { loop: true, maxIterations: e.maxIterations, onExhausted: e.onExhausted } : {}),
  }));
  const agents: DesignAgent[] = wf.agents.map((a) => ({
    key: a.key,
    role: a.description || a.name,
    instructions: a.instructions,
    tools: a.tools.map((t) => t.name),
    ...(a.savedAgentId ? { reuse: a.savedAgentId } : {}),
  }));
  return {
    design: {
      name: wf.name,
      description: wf.description,
      variables: wf.variables.map(({ key, value }) => ({ key, value })),
      nodes,
      edges,
    },
    agents,
  };
}

/** A subflow node's settings from the design form (legacy `args: {workflowId, inputs}` read too), malformed parts dropped. */
function subflowFields(node: DesignNode): { workflowId: string; inputs: Record<string, string>; version?: number } {
  const args = node.args ?? {};
  const workflowId = node.workflowId ?? (typeof args.workflowId === "string" ? args.workflowId : "");
  const raw =
    node.inputs ?? (args.inputs && typeof args.inputs === "object" && !Array.isArray(args.inputs) ? args.inputs : {});
  const version = node.version ?? args.version;
  return {
    workflowId,
    inputs: Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === "string")),
    ...(typeof version === "number" && Number.isInteger(version) && version > 0 ? { version } : {}),
  };
}
