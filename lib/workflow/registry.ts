import type { z } from "zod";
import {
  abortNodeSchema,
  agentNodeSchema,
  endNodeSchema,
  humanNodeSchema,
  mapNodeSchema,
  orchestratorNodeSchema,
  outcomesOf,
  routerNodeSchema,
  startNodeSchema,
  subflowNodeSchema,
  toolNodeSchema,
  type NodeKind,
  type NodeOf,
} from "./schema";

/**
 * The node-kind registry: one entry per kind with what every layer needs to know about it without
 * a switch of its own. The editor, designer and engine key their registries by NodeKind the same way
 * (`{ [K in NodeKind]: … }`), so adding a kind here without the others fails to compile.
 */
export type NodeKindSpec<K extends NodeKind> = {
  kind: K;
  label: string;
  description: string;
  /** zod schema of a node of this kind (the discriminated-union member). */
  configSchema: z.ZodType<NodeOf<K>, unknown>;
  /** A fresh node with defaults; `name` defaults to the label. */
  defaultConfig: (id: string) => NodeOf<K>;
  /** Outcome handles its outgoing edges may start from. */
  outcomes: (node: NodeOf<K>) => string[];
  /** Reaching it ends the path (end, abort). */
  terminal: boolean;
  /** At most one per workflow (start). */
  singleton: boolean;
  /** Canvas hints: a Tailwind colour family and a lucide icon name. */
  color: string;
  icon: string;
};

/** One spec per kind: adding a NodeKind without its entry fails to compile. */
export type NodeKindRegistry = { [K in NodeKind]: NodeKindSpec<K> };

const base = { join: "all" as const };

/** Every node kind, keyed by kind. */
export const nodeKindRegistry: NodeKindRegistry = {
  start: {
    kind: "start",
    label: "Start",
    description: "Where a run begins; exposes the run's inputs.",
    configSchema: startNodeSchema,
    defaultConfig: (id) => ({ ...base, id, name: "Start", type: "start" }),
    outcomes: outcomesOf,
    terminal: false,
    singleton: true,
    color: "emerald",
    icon: "play",
  },
  agent: {
    kind: "agent",
    label: "Agent",
    description: "An agent works on a templated task with its tools, then picks one of its branches.",
    configSchema: agentNodeSchema,
    defaultConfig: (id) => ({
      ...base,
      id,
      name: "Agent",
      type: "agent",
      agent: "",
      task: "",
      branches: [{ id: "done", label: "Done", condition: "" }],
    }),
    outcomes: outcomesOf,
    terminal: false,
    singleton: false,
    color: "sky",
    icon: "bot",
  },
  router: {
    kind: "router",
    label: "Router",
    description: "Picks exactly one branch, by an LLM judging the conditions or by a safe expression over data.",
    configSchema: routerNodeSchema,
    defaultConfig: (id) => ({
      ...base,
      id,
      name: "Router",
      type: "router",
      mode: "llm",
      prompt: "",
      branches: [
        { id: "yes", label: "Yes", condition: "" },
        { id: "no", label: "No", condition: "" },
      ],
    }),
    outcomes: outcomesOf,
    terminal: false,
    singleton: false,
    color: "amber",
    icon: "split",
  },
  tool: {
    kind: "tool",
    label: "Tool",
    description: "Calls one tool with templated arguments, without an LLM.",
    configSchema: toolNodeSchema,
    // A new tool node starts as a placeholder: validate() asks for a real tool until one is picked.
    defaultConfig: (id) => ({
      ...base,
      id,
      name: "Tool",
      type: "tool",
      tool: { name: "new_tool", placeholder: true },
      args: {},
      sideEffect: false,
    }),
    outcomes: outcomesOf,
    terminal: false,
    singleton: false,
    color: "violet",
    icon: "wrench",
  },
  orchestrator: {
    kind: "orchestrator",
    label: "Orchestrator",
    description: "An agent that hands sub-tasks to worker agents and combines their results.",
    configSchema: orchestratorNodeSchema,
    defaultConfig: (id) => ({
      ...base,
      id,
      name: "Orchestrator",
      type: "orchestrator",
      agent: "",
      task: "",
      workers: [],
      maxHandoffs: 10,
    }),
    outcomes: outcomesOf,
    terminal: false,
    singleton: false,
    color: "indigo",
    icon: "network",
  },
  human: {
    kind: "human",
    label: "Human review",
    description:
      "Waits for a person to choose one of its branches (and fill in its fields); the run holds no worker meanwhile.",
    configSchema: humanNodeSchema,
    defaultConfig: (id) => ({
      ...base,
      id,
      name: "Human review",
      type: "human",
      prompt: "",
      branches: [
        { id: "approve", label: "Approve", condition: "" },
        { id: "reject", label: "Reject", condition: "" },
      ],
      fields: [],
    }),
    outcomes: outcomesOf,
    terminal: false,
    singleton: false,
    color: "fuchsia",
    icon: "user-check",
  },
  subflow: {
    kind: "subflow",
    label: "Subflow",
    description:
      "Runs another of your saved workflows as one step and waits for its end; its outputs are this step's output.",
    configSchema: subflowNodeSchema,
    defaultConfig: (id) => ({ ...base, id, name: "Subflow", type: "subflow", workflowId: "", inputs: {} }),
    outcomes: outcomesOf,
    terminal: false,
    singleton: false,
    color: "cyan",
    icon: "workflow",
  },
  map: {
    kind: "map",
    label: "Map",
    description:
      "Runs one agent or tool step for every item of a list, a few at a time; its output is the results in item order.",
    configSchema: mapNodeSchema,
    defaultConfig: (id) => ({
      ...base,
      id,
      name: "Map",
      type: "map",
      items: "",
      body: { type: "agent", agent: "", task: "{{item}}" },
      concurrency: 4,
      onItemError: "fail",
    }),
    outcomes: outcomesOf,
    terminal: false,
    singleton: false,
    color: "teal",
    icon: "list-tree",
  },
  end: {
    kind: "end",
    label: "End",
    description: "Writes the run's outputs from templates; reaching it finishes the run.",
    configSchema: endNodeSchema,
    defaultConfig: (id) => ({ ...base, id, name: "End", type: "end", outputs: {} }),
    outcomes: outcomesOf,
    terminal: true,
    singleton: false,
    color: "slate",
    icon: "flag",
  },
  abort: {
    kind: "abort",
    label: "Abort",
    description: "Ends the run as aborted with a templated reason.",
    configSchema: abortNodeSchema,
    defaultConfig: (id) => ({ ...base, id, name: "Abort", type: "abort", reason: "Aborted" }),
    outcomes: outcomesOf,
    terminal: true,
    singleton: false,
    color: "rose",
    icon: "octagon-x",
  },
};

/** A fresh node of `kind` (see each kind's defaultConfig). */
export function defaultNode<K extends NodeKind>(kind: K, id: string): NodeOf<K> {
  return (nodeKindRegistry[kind] as NodeKindSpec<K>).defaultConfig(id);
}
