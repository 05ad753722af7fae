import type { Workflow } from "@/lib/workflow/schema";
import { workflowSchema } from "@/lib/workflow/schema";

/** A shared graph (allow-listed nodes/edges, see lib/run-views/share-dto) as a drawable workflow document. */
export interface GraphLike {
  name: string;
  nodes: {
    id: string;
    type: string;
    name: string;
    position: { x: number; y: number } | null;
    join?: "all" | "any";
    agent: string | null;
    tool: string | null;
    branches: { id: string; label: string }[];
    outputs: string[];
    errorBranch?: boolean;
  }[];
  edges: {
    id: string;
    source: string;
    sourceHandle: string;
    target: string;
    kind: "forward" | "loop";
    maxIterations: number | null;
    label: string | null;
  }[];
  agents: { key: string; name: string; model: string | null }[];
  defaultModel?: string | null;
}

/**
 * Rebuilds a Workflow from a shared graph so the editor's canvas can draw it: every field it would
 * run with (tasks, prompts, instructions, tool args, variables) is absent, defaults fill the rest.
 * Null when the graph does not parse (the page then shows no graph).
 */
export function graphToWorkflow(g: GraphLike): Workflow | null {
  const parsed = workflowSchema.safeParse({
    name: g.name,
    ...(g.defaultModel ? { defaultModel: { model: g.defaultModel } } : {}),
    agents: g.agents.map((a) => ({
      key: a.key,
      name: a.name || a.key,
      ...(a.model ? { model: { model: a.model } } : {}),
    })),
    nodes: g.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      name: n.name,
      ...(n.position ? { position: n.position } : {}),
      ...(n.join ? { join: n.join } : {}),
      ...(n.agent !== null ? { agent: n.agent } : {}),
      ...(n.tool !== null ? { tool: { name: n.tool } } : {}),
      // a map's body: which agent or tool runs per item (its items and task templates stay out)
      ...(n.type === "map"
        ? {
            body: n.agent !== null ? { type: "agent", agent: n.agent } : { type: "tool", tool: { name: n.tool ?? "" } },
          }
        : {}),
      ...(n.type === "agent" || n.type === "router" || (n.type === "human" && n.branches.length > 0)
        ? { branches: n.branches.map((b) => ({ id: b.id, label: b.label })) }
        : {}),
      // output names only: the templates stay out of the shared graph
      ...(n.type === "end" ? { outputs: Object.fromEntries(n.outputs.map((k) => [k, ""])) } : {}),
      ...(n.errorBranch ? { onError: { onExhausted: "error_branch" } } : {}),
    })),
    edges: g.edges.map((e) => ({
      id: e.id,
      source: e.source,
      sourceHandle: e.sourceHandle,
      target: e.target,
      kind: e.kind,
      ...(e.maxIterations !== null ? { maxIterations: e.maxIterations } : {}),
      ...(e.label !== null ? { label: e.label } : {}),
    })),
  });
  return parsed.success ? parsed.data : null;
}
